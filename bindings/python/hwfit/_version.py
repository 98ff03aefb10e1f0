"""The package's version: the C library's (include/hwfit/version.h); a test keeps them equal."""
__version__ = "0.2.0"
