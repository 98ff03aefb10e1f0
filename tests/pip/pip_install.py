#!/usr/bin/env python3
"""pip installs the Python package (offline, no build isolation) into a temporary
directory, and the installed package answers from another working directory with the
library it bundled: no path into the checkout, no HWFIT_LIBRARY.

With CLI (the build tree's hwfit), the installed package's answer to a newcomer's question
(issue #15) must be byte for byte the build tree's.

Usage: pip_install.py PACKAGE_DIR LIBRARY [CLI]. Exits 77 (skipped) when pip or setuptools is
missing (the CI machine installs python3-pip for this test)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def interpreter():
    """The first Python with pip, setuptools and wheel: this one, or Debian's."""
    probe = "import setuptools, wheel, pip"
    for exe in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(exe) and subprocess.run([exe, "-c", probe],
                                                  capture_output=True).returncode == 0:
            return exe
    return None


def main():
    package, library = sys.argv[1], sys.argv[2]
    cli = sys.argv[3] if len(sys.argv) > 3 else None
    python = interpreter()
    if python is None:
        print("no Python with pip, setuptools and wheel (apt-get install python3-pip "
              "python3-setuptools python3-wheel): skipped")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(package, src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info",
                                                                   "build"))
        target = os.path.join(tmp, "site")
        env = dict(os.environ, HWFIT_LIBRARY=library, PIP_NO_INDEX="1",
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
        proc = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation",
                               "--no-deps", "--target", target, src],
                              capture_output=True, text=True, env=env, cwd=tmp)
        if proc.returncode:
            print(proc.stdout, proc.stderr)
            return 1
        bundled = os.path.join(target, "hwfit", "libhwfit.so")
        if not os.path.isfile(bundled):
            print("the package did not bundle the library")
            return 1
        env = {k: v for k, v in os.environ.items()
               if k not in ("HWFIT_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")}
        env["PYTHONPATH"] = target
        code = ("import hwfit, json, os;"
                "r = hwfit.fit(model='meta-llama/Llama-3.1-70B', gpu='l40s', gpus=4);"
                "print(json.dumps({'lib': hwfit._lib.LIBRARY_PATH if hasattr(hwfit._lib, "
                "'LIBRARY_PATH') else '', 'fits': r['fits'], 'per_gpu': r['per_gpu_bytes']}))")
        proc = subprocess.run([python, "-c", code], capture_output=True, text=True,
                              env=env, cwd=tmp)
        if proc.returncode:
            print(proc.stdout, proc.stderr)
            return 1
        answer = json.loads(proc.stdout)
        print("pip-installed package answered:", answer)
        if not isinstance(answer["per_gpu"], int) or answer["per_gpu"] <= 0:
            return 1
        if cli:
            # The same question through the installed package and the build tree's hwfit,
            # both from a directory outside the checkout: the same bytes.
            # (the newcomer question: Qwen2.5-72B from the installed catalog; it fits
            # on four L40S with tensor parallelism)
            question = {"model": "Qwen/Qwen2.5-72B", "gpu": "l40s", "gpus": 4}
            code = ("import hwfit, sys;"
                    f"r = hwfit.fit(**{question!r});"
                    "assert r['model_type'] == 'qwen2', r['model_type'];"
                    "assert r['fits'] is True, r['fits'];"
                    f"sys.stdout.write(hwfit.run('fit', 'json', **{question!r}))")
            proc = subprocess.run([python, "-c", code], capture_output=True, text=True,
                                  env=env, cwd=tmp)
            if proc.returncode:
                print(proc.stdout, proc.stderr)
                return 1
            built = subprocess.run([cli, "fit", "--model", question["model"], "--gpu", "l40s",
                                    "--gpus", "4", "--json"], capture_output=True, text=True,
                                   cwd=tmp)
            if built.returncode not in (0, 1) or proc.stdout != built.stdout:
                print("the installed package and the build tree answer differently:\n",
                      proc.stdout, "\n---\n", built.stdout, built.stderr)
                return 1
            print("installed package == build tree:", len(built.stdout), "bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
