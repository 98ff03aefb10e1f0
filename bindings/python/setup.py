"""Builds the hwfit package; bundles the C library when one is built or installed.

`pip install --no-build-isolation ./bindings/python` (offline: Debian's pip and setuptools)
copies libhwfit.so into the package from, in order: $HWFIT_LIBRARY, the checkout's
build/release or build/dev, or the prefix of a `hwfit` command on PATH. Without one, the
package finds the library at import time (hwfit/_lib.py says where it looks).
"""
import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _library():
    env = os.environ.get("HWFIT_LIBRARY")
    if env and os.path.isfile(env):
        return env
    root = os.path.abspath(os.path.join(HERE, "..", ".."))
    for preset in ("release", "dev"):
        found = sorted(glob.glob(os.path.join(root, "build", preset, "libhwfit.so.*")))
        if found:
            return found[-1]
    cli = shutil.which("hwfit")
    if cli:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(cli)))
        for libdir in ("lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"):
            found = sorted(glob.glob(os.path.join(prefix, libdir, "libhwfit.so.*")))
            if found:
                return found[-1]
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        lib = _library()
        if lib:
            target = os.path.join(self.build_lib, "hwfit", "libhwfit.so")
            shutil.copyfile(os.path.realpath(lib), target)


setup(cmdclass={"build_py": BuildWithLibrary})
