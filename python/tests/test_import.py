"""The package imports from the build tree and names its version."""
import frictionlab


def test_import_and_version():
    assert frictionlab.__version__ == "0.1.0"
    assert frictionlab._frictionlab.__doc__.startswith("frictionlab")
