"""The `learning` profile's tools: keep a note for later episodes, and look notes up.

They reach the run's store (server/learning/store.py) through the episode's server
state, never the other way round: the store holds only what the agent saved.
Docstrings are what the agent reads. Neither takes simulated time.
"""

from typing import Annotated

from mcp.server.mcpserver import Context
from pydantic import Field

from ..learning.store import MAX_TEXT_CHARS, LearningError
from .results import LearningsFound, LearningSaved
from .state import state_of

MAX_QUERY_CHARS = 500


def _store(ctx: Context):
    learnings = state_of(ctx).learnings
    if learnings is None:  # a learning profile served without a run's store (serve by hand)
        raise LearningError("no learning store in this session: learnings are kept by `a320-bench run --profile "
                            "learning`")
    return learnings


async def save_learning(
    text: Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS,
                               description="What you want to remember in later episodes, in your own words.")],
    ctx: Context,
) -> LearningSaved:
    """Keep a learning for the later episodes of this run: anything you found out that may help
    next time. Only you write learnings; they are kept exactly as you write them. At most 10
    per episode, 2000 characters each. Takes no simulated time."""
    store = _store(ctx)
    entry = store.save_learning(text)
    return LearningSaved(id=entry.id, saved=True, sim_time_s=state_of(ctx).episode.sim_elapsed)


async def retrieve_learnings(
    query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS,
                                description="Words to look for, e.g. an ECAM alert title.")],
    ctx: Context,
) -> LearningsFound:
    """Look up the learnings you saved in earlier episodes of this run (and this one): the ones that
    best match the words of your query, best first, at most `limit` of them (a word-match
    ranking, BM25). Empty when nothing matches. Takes no simulated time."""
    store = _store(ctx)
    found = store.retrieve_learnings(query)
    return LearningsFound(learnings=[e.shown() for e in found], limit=store.top_k,
                          sim_time_s=state_of(ctx).episode.sim_elapsed)
