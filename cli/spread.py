"""Work spread over worker processes (`--jobs N`): the rebuild, the archive audit and the
simulator hand their games to N processes, so they use every core instead of one.

Each worker is a fresh interpreter (`spawn`: no connection pool, lock or thread of the
parent is copied half-way into it) that opens the store itself. Each worker reports through its own
pipe: the game each starts, each game done or failed, progress, and their own result.
A game that fails is named and the worker goes on with the next; a worker that dies (killed,
out of memory) is named with the game it was on, and a fresh worker takes its place for the
games still waiting, so one failure stops nothing else. A worker does nothing but batch
work, so it runs the cyclic garbage collector less often (`projections.batch`).

Two ways to hand out work:
- `each`: a shared queue of items (game ids, game numbers), one at a time to whichever worker
  is free, so a long game does not hold up a worker's share;
- `parts`: worker k of N does its own part of the whole (the rebuild: the games whose id
  falls to it, reading only those games' events), and returns one result.
"""

from __future__ import annotations

import multiprocessing
import queue as queues
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import connection
from typing import Any, cast

from projections.batch import fewer_collections


@dataclass(frozen=True)
class Failure:
    item: str
    error: str
    worker: int


@dataclass
class Spread:
    """What came back: each item's value (in the order they finished), the failures, each
    part's result, and how long it all took."""

    values: list[tuple[str, Any]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    parts: dict[int, Any] = field(default_factory=dict)
    per_worker: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0


class Report:
    """A worker's side of its pipe. Each message is written before the call returns (no
    buffering thread), so what a worker said before it died is never lost with it."""

    def __init__(self, pipe: Any, worker: int) -> None:
        self.pipe, self.worker = pipe, worker

    def send(self, *message: Any) -> None:
        self.pipe.send((message[0], self.worker, *message[1:]))

    def starting(self, item: str) -> None:
        self.send("starting", item)

    def progress(self, amount: int) -> None:
        self.send("progress", amount)

    def failed(self, item: str, error: str) -> None:
        self.send("failed", item, error)


def described(error: BaseException) -> str:
    """One line: the error's type and first line, and where in our code it was raised."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/site-packages/" not in f.filename]
    where = f" (at {frames[-1].filename.rsplit('/', 2)[-1]}:{frames[-1].lineno})" if frames else ""
    first = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {first}{where}"


def _each_worker(task: Callable[..., Any], setup: Callable[..., Any], args: tuple[Any, ...], items: Any,
                 pipe: Any, worker: int) -> None:
    report = Report(pipe, worker)
    try:
        context = setup(*args)
    except BaseException as error:  # nothing can be done here: the parent names it and gives up on this worker
        report.send("broken", described(error))
        return
    with fewer_collections():
        while (item := items.get()) is not None:
            report.starting(str(item))
            try:
                value = task(context, item)
            except Exception as error:
                report.failed(str(item), described(error))
            else:
                report.send("done", str(item), value)
    report.send("finished", None)


def _part_worker(task: Callable[..., Any], args: tuple[Any, ...], pipe: Any, worker: int, workers: int) -> None:
    report = Report(pipe, worker)
    try:
        with fewer_collections():
            result = task(report, worker, workers, *args)
    except BaseException as error:
        report.send("broken", described(error))
        return
    report.send("finished", result)


def each(task: Callable[[Any, Any], Any], setup: Callable[..., Any], args: tuple[Any, ...], items: Sequence[Any],
         jobs: int, on_done: Callable[[str, Any, int], None] | None = None,
         on_failure: Callable[[Failure], None] | None = None) -> Spread:
    """`task(setup(*args), item)` for every item, over `jobs` processes; `task` and `setup`
    are module-level functions (the workers import them by name)."""
    context = multiprocessing.get_context("spawn")
    waiting = context.Queue()
    for item in items:
        waiting.put(item)
    for _ in range(jobs):
        waiting.put(None)  # one stop sign per worker

    def start(worker: int) -> tuple[Any, Any]:
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=_each_worker, args=(task, setup, args, waiting, writer, worker), daemon=True)
        process.start()
        writer.close()  # the worker holds the only writing end: its death ends the pipe
        return process, reader

    spread = _collect(jobs, start, on_done, on_failure, replace=True)
    # Every worker gave up before the queue ran dry (none could open the store): what was
    # left is named, not silently dropped.
    while True:
        try:
            item = waiting.get(timeout=0.1)
        except queues.Empty:
            break
        if item is not None:
            failure = Failure(str(item), "not done: no worker was left to do it", -1)
            spread.failures.append(failure)
            if on_failure is not None:
                on_failure(failure)
    return spread


def parts(task: Callable[..., Any], args: tuple[Any, ...], jobs: int, on_progress: Callable[[int], None] | None = None,
          on_failure: Callable[[Failure], None] | None = None) -> Spread:
    """`task(report, k, jobs, *args)` in each of `jobs` processes; their results by k."""
    context = multiprocessing.get_context("spawn")

    def start(worker: int) -> tuple[Any, Any]:
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=_part_worker, args=(task, args, writer, worker, jobs), daemon=True)
        process.start()
        writer.close()
        return process, reader

    return _collect(jobs, start, None, on_failure, on_progress=on_progress, replace=False)


def _collect(jobs: int, start: Callable[[int], tuple[Any, Any]], on_done: Callable[[str, Any, int], None] | None,
             on_failure: Callable[[Failure], None] | None, on_progress: Callable[[int], None] | None = None,
             replace: bool = True) -> Spread:
    began = time.perf_counter()
    workers = {worker: start(worker) for worker in range(jobs)}
    spread = Spread(per_worker={worker: 0 for worker in workers})
    current: dict[int, str | None] = {worker: None for worker in workers}
    running = set(workers)
    next_worker = jobs

    def fail(failure: Failure) -> None:
        spread.failures.append(failure)
        if on_failure is not None:
            on_failure(failure)

    def handle(message: tuple[Any, ...]) -> None:
        kind, worker = message[0], message[1]
        if kind == "starting":
            current[worker] = message[2]
        elif kind == "progress":
            if on_progress is not None:
                on_progress(message[2])
        elif kind == "done":
            current[worker] = None
            spread.values.append((message[2], message[3]))
            spread.per_worker[worker] += 1
            if on_done is not None:
                on_done(message[2], message[3], worker)
        elif kind == "failed":
            current[worker] = None
            spread.per_worker[worker] += 1
            fail(Failure(message[2], message[3], worker))
        elif kind == "finished":
            spread.parts[worker] = message[2]
            running.discard(worker)
        elif kind == "broken":
            fail(Failure(current.get(worker) or f"worker {worker + 1}", f"the worker could not go on: {message[2]}", worker))
            running.discard(worker)

    while running:
        pipes = {workers[w][1]: w for w in running}
        for ready in connection.wait(list(pipes)):
            worker = pipes[ready]
            try:
                handle(cast(Any, ready).recv())
            except EOFError:  # the pipe ended without a last word: the worker died
                if worker not in running:
                    continue
                running.discard(worker)
                process = workers[worker][0]
                process.join(timeout=5)
                on = current.get(worker)
                spread.per_worker[worker] += 1 if on else 0
                fail(Failure(on or f"worker {worker + 1}", f"the worker stopped (exit code {process.exitcode})"
                             + (f" while on {on}" if on else ""), worker))
                if replace:
                    # The games still waiting go to a fresh worker (it takes the dead one's stop sign).
                    workers[next_worker] = start(next_worker)
                    current[next_worker] = None
                    spread.per_worker[next_worker] = 0
                    running.add(next_worker)
                    next_worker += 1
    for process, reader in workers.values():
        process.join(timeout=5)
        reader.close()
    spread.seconds = time.perf_counter() - began
    return spread
