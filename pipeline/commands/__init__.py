"""One module per CLI command (or family of commands); each registers itself on ``pipeline.app``."""
