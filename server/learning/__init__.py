"""The learning track (the `learning` profile): the store of what an agent chose to remember.

    store   one chain's learnings on disk (a run folder, an agent, a run index), retrieval by BM25

The agent reaches it only through `save_learning` and `retrieve_learnings`.
"""
