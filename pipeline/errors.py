"""The one base class of every error a user can cause and fix.

A recipe key out of range, an unreadable file, a locked run folder, a damaged catalog: each is a
:class:`UserError` whose message names the key, line, cell or file at fault. The CLI catches
this class in one place (:class:`pipeline.app.OneLineErrors`) and prints it as one ``Error:``
line with exit code 2; anything else that escapes a command is a bug (exit 3, traceback saved).
It stays a ``ValueError`` so that library callers catching that keep working.
"""


class UserError(ValueError):
    """Something the user can fix; the message says what and where."""


class PipelineError(UserError):
    """A run cannot go on; the message says which section, file or setting is at fault."""
