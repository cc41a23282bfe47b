"""frictionlab.Record: from NumPy arrays (float64 in place, float32 converted once), a pandas
DataFrame or a file (io::read_record), the library's checks and messages, and the channels read
back as read-only views of the record's memory."""
import numpy as np
import pandas as pd
import pytest

import frictionlab as fl


def arrays(n=100):
    t = np.linspace(0.0, 1.0, n)
    return t, np.sin(2 * np.pi * t), np.cos(2 * np.pi * t)


def test_from_arrays_values_and_views():
    t, v, f = arrays()
    r = fl.Record(t, velocity=v, force=f, source="mine")
    assert len(r) == 100 and r.source == "mine"
    np.testing.assert_array_equal(r.t, t)
    np.testing.assert_array_equal(r.velocity, v)
    np.testing.assert_array_equal(r.force, f)
    assert r.position.size == 0 and r.current.size == 0
    # the channels are views of the record's memory: no copy on access, read-only
    a, b = r.velocity, r.velocity
    assert np.shares_memory(a, b)
    assert not a.flags.writeable and a.base is not None
    with pytest.raises(ValueError):
        a[0] = 1.0
    # the record owns its data: changing the input does not change the record
    v[0] = 123.0
    assert r.velocity[0] != 123.0


def test_float32_is_accepted_and_converted_exactly():
    t, v, f = arrays()
    r = fl.Record(t.astype(np.float32), velocity=v.astype(np.float32), force=f)
    assert r.t.dtype == np.float64
    np.testing.assert_array_equal(r.velocity, v.astype(np.float32).astype(np.float64))


def test_strided_input():
    t, v, f = arrays(200)
    r = fl.Record(t[::2], velocity=v[::2], force=f[::2])
    np.testing.assert_array_equal(r.velocity, v[::2])


def test_nan_is_an_error_naming_the_sample():
    t, v, f = arrays()
    v[6] = np.nan
    with pytest.raises(fl.Error, match=r"sample 7.*velocity|velocity.*sample 7") as e:
        fl.Record(t, velocity=v, force=f, source="rec")
    assert isinstance(e.value, ValueError)
    assert "rec" in str(e.value)


def test_time_not_increasing_is_an_error():
    t, v, f = arrays()
    t[10] = t[9]
    with pytest.raises(fl.Error, match="sample 11"):
        fl.Record(t, velocity=v, force=f)


def test_lengths_differ():
    t, v, f = arrays()
    with pytest.raises(fl.Error, match="99 samples"):
        fl.Record(t, velocity=v[:-1], force=f)


@pytest.mark.parametrize("bad, message", [
    (np.arange(100), "expected float64 or float32, got int64"),
    (np.zeros((100, 2)), "one-dimensional"),
    ([0.0, 1.0], "expected a NumPy array"),
])
def test_wrong_dtype_or_shape_is_not_converted(bad, message):
    t, v, f = arrays()
    with pytest.raises(fl.Error, match=message):
        fl.Record(t, velocity=bad, force=f)


def test_from_dataframe_and_read_csv_agree(tmp_path):
    t, v, f = arrays()
    df = pd.DataFrame({"time": t, "vel": v, "F": f})
    r = fl.Record.from_dataframe(df, time="time", velocity="vel", force="F", source="df")
    np.testing.assert_array_equal(r.velocity, v)
    assert r.source == "df"
    path = tmp_path / "rec.csv"
    df.to_csv(path, index=False, float_format="%.17g")
    r2 = fl.Record.read(path, time="time", velocity="vel", force="F")
    np.testing.assert_array_equal(r2.t, t)
    np.testing.assert_array_equal(r2.force, f)
    back = r2.to_dataframe()
    np.testing.assert_array_equal(back["velocity"].to_numpy(), v)


def test_dataframe_errors():
    t, v, f = arrays()
    df = pd.DataFrame({"t": t, "v": v, "n": np.arange(100)})
    with pytest.raises(fl.Error, match=r"no column 'vel'.*columns found: t, v, n"):
        fl.Record.from_dataframe(df, velocity="vel")
    with pytest.raises(fl.Error, match="got int64"):
        fl.Record.from_dataframe(df, velocity="n")


def test_read_errors_name_the_file(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("t,v\n0,1\n0.1,x\n")
    with pytest.raises(fl.Error, match=r"bad.csv:3"):
        fl.Record.read(p, velocity="v")
    p.write_text("t,v\n0,1\n0.1,2\n")
    with pytest.raises(fl.Error, match=r"no column 'w' \(columns found: t, v\)"):
        fl.Record.read(p, velocity="w")
    with pytest.raises(fl.Error, match="unknown option 'speed'"):
        fl.Record.read(p, speed="v")
