"""The page's lines of events (``demo.sessions``): one session's events in the order they came,
other sessions' beside them, and at most ``HEAVY_JOBS`` heavy jobs at once."""

import asyncio
import threading
import time

from demo.sessions import Turns, session_of


def _job(log, name, seconds):
    def call():
        log.append(f"{name} starts")
        time.sleep(seconds)
        log.append(f"{name} ends")
        return name

    return call


async def _started(coroutines):
    """The coroutines started in this order (each reaches its handler before the next), then awaited."""
    tasks = []
    for coroutine in coroutines:
        tasks.append(asyncio.ensure_future(coroutine))
        await asyncio.sleep(0)
    return await asyncio.gather(*tasks)


def test_one_sessions_events_run_in_the_order_they_came():
    turns, log = Turns(), []
    line = ("one", "a")
    jobs = [turns.run(line, _job(log, "slow", 0.3)), turns.run(line, _job(log, "fast", 0.0))]
    assert asyncio.run(_started(jobs)) == ["slow", "fast"]
    assert log == ["slow starts", "slow ends", "fast starts", "fast ends"]
    assert turns.waiting() == 0


def test_another_sessions_event_does_not_wait_behind_a_heavy_job():
    turns, log = Turns(heavy_jobs=1), []
    jobs = [
        turns.run(("file", "a"), _job(log, "a's file", 0.5), heavy=True),
        turns.run(("one", "b"), _job(log, "b's example", 0.0)),
        turns.run(("one", "a"), _job(log, "a's example", 0.0)),  # a's own other line
    ]
    asyncio.run(_started(jobs))
    assert log.index("b's example ends") < log.index("a's file ends")
    assert log.index("a's example ends") < log.index("a's file ends")


def test_heavy_jobs_take_one_of_the_places():
    turns, running, most = Turns(heavy_jobs=2), [], [0]
    lock = threading.Lock()

    def heavy():
        with lock:
            running.append(1)
            most[0] = max(most[0], len(running))
        time.sleep(0.2)
        with lock:
            running.pop()

    jobs = [turns.run(("file", session), heavy, heavy=True) for session in "abcde"]
    started = time.monotonic()
    asyncio.run(_started(jobs))
    assert most[0] == 2
    assert time.monotonic() - started >= 0.55  # five jobs of 0.2 s, two at a time: three rounds


def test_an_event_cancelled_while_it_waits_does_not_let_the_next_one_overtake():
    turns, log = Turns(), []
    line = ("one", "a")

    async def scenario():
        first = asyncio.ensure_future(turns.run(line, _job(log, "first", 0.4)))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(turns.run(line, _job(log, "second", 0.0)))
        await asyncio.sleep(0)
        third = asyncio.ensure_future(turns.run(line, _job(log, "third", 0.0)))
        await asyncio.sleep(0.05)
        second.cancel()  # a visitor who left: gradio cancels the event's task
        await asyncio.gather(first, third)

    asyncio.run(scenario())
    assert log == ["first starts", "first ends", "third starts", "third ends"]
    assert turns.waiting() == 0


def test_a_session_is_named_by_gradios_session_hash():
    class Request:
        session_hash = "abc"

    assert session_of(Request()) == "abc"
    assert session_of(None) == ""  # a call without a request (a test) has one line of its own
