"""Build of the Python package frictionlab for pip (pyproject.toml; docs/python.md, "Install").

The compiled module frictionlab._frictionlab is built by the project's CMake (python/CMakeLists.txt,
target frictionlab_python) and copied into the wheel next to the pure-Python files of
python/frictionlab/. Nothing is downloaded: the C++ dependencies are the system's (as for the C++
build, scripts/install-deps.sh), so install with `pip install --no-build-isolation --no-index .`.

The CMake build directory is build/pip under the source tree (kept, so that a reinstall is
incremental), or $FRICTIONLAB_CMAKE_BUILD_DIR: an existing configured build tree is reused as it
is (only the frictionlab_python target is built).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
STAGING = ROOT / "build" / "setuptools"


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(os.environ.get("FRICTIONLAB_CMAKE_BUILD_DIR", ROOT / "build" / "pip")).resolve()
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("frictionlab: cmake is needed to build the Python module (apt-get install cmake)")
        if not (build_dir / "CMakeCache.txt").exists():
            args = [cmake, "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                    "-DFRICTIONLAB_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
                    "-DFRICTIONLAB_BUILD_TESTS=OFF", "-DFRICTIONLAB_BUILD_BENCHMARKS=OFF",
                    "-DFRICTIONLAB_BUILD_APPS=OFF"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            if shutil.which("ccache"):
                args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
            subprocess.run(args, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run([cmake, "--build", str(build_dir), "--target", "frictionlab_python", "-j", jobs],
                       check=True)
        built = sorted((build_dir / "python" / "frictionlab").glob("_frictionlab*.so"))
        if not built:
            raise RuntimeError(f"frictionlab: the module was not built in {build_dir}/python/frictionlab")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


STAGING.mkdir(parents=True, exist_ok=True)
setup(
    packages=["frictionlab"],
    package_dir={"frictionlab": "python/frictionlab"},
    package_data={"frictionlab": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("frictionlab._frictionlab")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(STAGING)}, "egg_info": {"egg_base": str(STAGING)}},
    zip_safe=False,
)
