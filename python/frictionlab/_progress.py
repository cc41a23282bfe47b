"""Progress bars for the long calls (fit, compare, fit_joint, fit_actuator, ...): what
``progress=True`` uses. A workflow reports (message, fraction) pairs; fraction is in [0, 1], or
negative when the workflow cannot tell (docs/python.md, "Progress and Ctrl-C")."""

from tqdm import tqdm


class TqdmProgress:
    """A tqdm bar over [0, 1] that shows the workflow's last message; callable as
    ``progress(message, fraction)``. Closed by the call that created it."""

    def __init__(self, **tqdm_args):
        args = dict(total=1.0, unit="", bar_format="{l_bar}{bar}| {elapsed} {postfix}")
        args.update(tqdm_args)
        self.bar = tqdm(**args)

    def __call__(self, message, fraction):
        if fraction >= 0:
            self.bar.n = min(1.0, float(fraction))
        self.bar.set_postfix_str(message, refresh=False)
        self.bar.refresh()

    def close(self):
        self.bar.close()
