"""The fleet engine's Dask scheduler plugin (imported by fleet.engine only when a run starts a
client: it imports distributed). It counts, per fleet task, how often a worker process died while
the task was assigned to it: the scheduler's `suspicious` count, what it retries and what becomes
a KilledWorker after `distributed.scheduler.allowed-failures`. The engine adds these counts to the
tasks' `attempts` at the end of a run (docs/fleet.md, "Nothing lost, nothing twice")."""
from distributed.diagnostics.plugin import SchedulerPlugin

NAME = "frictionlab-fleet-attempts"


class Attempts(SchedulerPlugin):
    """{task key: times a worker died on it} of the tasks whose key starts with "fleet-"."""
    name = NAME

    def __init__(self):
        self.retried = {}
        self.scheduler = None

    async def start(self, scheduler):
        self.scheduler = scheduler

    def transition(self, key, start, finish, *args, **kwargs):
        if finish in ("memory", "erred") and isinstance(key, str) and key.startswith("fleet-"):
            ts = self.scheduler.tasks.get(key) if self.scheduler is not None else None
            if ts is not None and ts.suspicious:
                self.retried[key] = int(ts.suspicious)


def retried(keys, dask_scheduler=None):
    """On the scheduler (Client.run_on_scheduler): {key: times its worker died} of `keys`."""
    p = dask_scheduler.plugins.get(NAME)
    return {k: p.retried[k] for k in keys if p is not None and k in p.retried}
