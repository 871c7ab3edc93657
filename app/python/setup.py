"""Builds the compiled module through the project's CMake (offline: nothing is downloaded).

    pip install --no-build-isolation --no-index ./app/python

configures a build in app/python/build-pip (Release, no GUI, no tests) and builds only the
target _warplab. WARPLAB_BUILD_DIR=build (relative to the checkout's root) reuses a build
folder that is already configured for the same Python, so that a built module is only copied;
WARPLAB_CMAKE_ARGS adds configure options ("-DWARPLAB_HIP=OFF", "-DWARPLAB_CUDA=ON ...").
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        # A relative WARPLAB_BUILD_DIR is taken from the checkout's root (pip runs this file in app/python).
        build_dir = os.path.join(ROOT, os.environ.get("WARPLAB_BUILD_DIR") or os.path.join(HERE, "build-pip"))
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DWARPLAB_GUI=OFF", "-DWARPLAB_TESTS=OFF",
                                   "-DPython3_EXECUTABLE=" + sys.executable,
                                   *shlex.split(os.environ.get("WARPLAB_CMAKE_ARGS", ""))])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_warplab", "-j", jobs])
        built = glob.glob(os.path.join(build_dir, "python", "warplab", "_warplab*.so"))
        if not built:
            raise RuntimeError(build_dir + ": the build made no _warplab module (are python3-dev and pybind11-dev "
                               "installed? scripts/setup-debian.sh)")
        target = os.path.join(self.build_lib, "warplab")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(built[0], target)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):  # a platform wheel: the package holds a compiled module
        return True


setup(cmdclass={"build_py": BuildWithCMake}, distclass=BinaryDistribution)
