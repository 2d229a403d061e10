"""The project's version, in one place: pyproject.toml reads it from here (`[tool.setuptools.dynamic]`), and
`autograph.__version__` and `runtime.__version__` are this."""
__version__ = "0.1.0"
