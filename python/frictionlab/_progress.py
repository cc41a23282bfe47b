"""Progress bars for the long calls (fit, compare, fit_joint, fit_actuator, ...): what
``progress=True`` uses. A workflow reports (message, fraction) pairs; fraction is in [0, 1], or
negative when the workflow cannot tell (docs/python.md, "Progress and Ctrl-C")."""

from tqdm import tqdm

# The widest message shown beside the bar [characters]: a longer one is cut with "...", so the
# line keeps its width instead of wrapping under the bar.
MESSAGE_WIDTH = 60
BAR = "{l_bar}{bar}| {elapsed} {postfix}"
NO_BAR = "{desc}{elapsed} {postfix}"


def _short(message):
    message = " ".join(str(message).split())
    return message if len(message) <= MESSAGE_WIDTH else message[:MESSAGE_WIDTH - 3] + "..."


class TqdmProgress:
    """A tqdm line that shows the elapsed time and the workflow's last message, and a bar over
    [0, 1] from the first report with a fraction on (a workflow that cannot tell how far it is,
    fraction < 0, gets no bar rather than one stuck at 0 %); callable as
    ``progress(message, fraction)``. Closed by the call that created it."""

    def __init__(self, **tqdm_args):
        args = dict(total=None, unit="", bar_format=NO_BAR)
        args.update(tqdm_args)
        self.bar = tqdm(**args)

    def __call__(self, message, fraction):
        if fraction >= 0:
            if self.bar.total is None:
                self.bar.total = 1.0
                self.bar.bar_format = BAR
            self.bar.n = min(1.0, float(fraction))
        self.bar.set_postfix_str(_short(message), refresh=False)
        self.bar.refresh()

    def close(self):
        self.bar.close()
