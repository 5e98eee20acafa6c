"""The lab's typed errors (each becomes a clean message and exit code 2 in the CLI)."""

from __future__ import annotations

from rulekeeper.core.errors import RulekeeperError

#: What a user runs to get the Dask backend.
CLUSTER_INSTALL = "pip install 'rulekeeper[cluster]'"


class LabRequestError(RulekeeperError):
    """A lab request that cannot be run: zero simulations, an impossible level, a missing folder..."""

    code = "lab_request"


class BackendMissingError(RulekeeperError):
    """A backend whose optional dependency is not installed (Dask without ``rulekeeper[cluster]``)."""

    code = "backend_missing"


class SchedulerUnreachableError(RulekeeperError):
    """A Dask scheduler address nobody answers at (within the connection timeout)."""

    code = "scheduler_unreachable"


def remote_error(code: str, message: str) -> RulekeeperError:
    """A typed error raised in a worker, rebuilt in the parent with its code and message.

    Subclasses of :class:`RulekeeperError` take their own constructor arguments, so they do
    not survive pickling; the worker sends the code and message instead.
    """
    err = RulekeeperError(message)
    err.code = code
    return err
