"""Language models in research, when one is configured: the `reason` role drafts the plan,
the `screen` role judges papers the deterministic score is unsure about, the `write` role
drafts section prose (see prose.py). All are optional and bounded: every call is checked
against the task's token budget first, every reply is validated, and anything missing or
invalid falls back to the deterministic path.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from citewise.agent.research.model import FACETS, Plan, SubQuestion
from citewise.agent.research.tasks import TaskStore
from citewise.llm.base import Completion, Message, ModelError, Params
from citewise.llm.client import ModelClient, cache_key
from citewise.llm.structured import parse_reply
from citewise.retrieval.terms import content_terms
from citewise.store.protocols import Store

T = TypeVar("T", bound=BaseModel)
# Chat templates add a few tokens per message; estimates round up by this share as well.
PER_MESSAGE_TOKENS = 8
ESTIMATE_MARGIN = 0.05
PLAN_MAX_TOKENS = 400
SCREEN_MAX_TOKENS = 60


class TokenBudget:
    """The task's model tokens against the limit from --budget-tokens (None: unlimited).

    Every reply the task consumes is charged once per distinct request (a `tokens` event
    keyed by the request's cache key, holding the tokens the reply cost when it was made),
    whether it came fresh or from the response cache. So a resumed task is not charged twice
    for a call it repeats, and a cached rerun makes the same calls and skips the same ones as
    the first run. Tokens actually spent (`used`, from the audit log) never exceed the charge.
    """

    def __init__(self, store: Store, task_id: str, limit: int | None) -> None:
        self.store = store
        self.task_id = task_id
        self.limit = limit

    def used(self) -> int:
        """Tokens of the task's calls that reached a model (cache hits cost nothing)."""
        return self.store.audit.model_tokens_used(self.task_id)

    def charged(self) -> int:
        return self.store.tasks.charged_tokens(self.task_id)

    def charge(self, key: str, completion: Completion, role: str | None) -> None:
        tokens = completion.prompt_tokens + completion.completion_tokens
        TaskStore(self.store.tasks).event(
            self.task_id, role or "model", "tokens", {"key": key, "tokens": tokens}
        )

    def allows(self, estimate: int) -> bool:
        return self.limit is None or self.charged() + estimate <= self.limit


def estimate_tokens(client: ModelClient, messages: list[Message], max_tokens: int) -> int:
    """An upper estimate of what a call costs: the prompt, template overhead, the longest reply."""
    prompt = sum(client.count_tokens(m["content"]) + PER_MESSAGE_TOKENS for m in messages)
    return math.ceil((prompt + max_tokens) * (1 + ESTIMATE_MARGIN))


class PlannedQuestion(BaseModel):
    question: str = Field(min_length=10, max_length=300)
    facet: Literal["methods", "datasets", "metrics", "results", "limitations", "applications"]
    queries: list[str] = Field(min_length=1, max_length=4)


class PlanReply(BaseModel):
    sub_questions: list[PlannedQuestion] = Field(min_length=4, max_length=8)


class ScreenReply(BaseModel):
    relevant: bool
    reason: str = Field(max_length=300)


@dataclass
class ResearchModels:
    """The clients serving research roles for one task, and its budget."""

    reason: ModelClient | None
    screen: ModelClient | None
    budget: TokenBudget
    write: ModelClient | None = None
    on_skip: Callable[[str], None] = lambda note: None

    def ask(
        self, client: ModelClient, messages: list[Message], shape: type[T], max_tokens: int
    ) -> T | None:
        """A validated reply, retried once with the error; None when the budget does not
        allow a call, the model fails, or neither reply validates."""
        conversation = list(messages)
        for _attempt in range(2):
            estimate = estimate_tokens(client, conversation, max_tokens)
            if not self.budget.allows(estimate):
                self.on_skip(f"token budget: a {client.role} call (~{estimate} tokens) skipped")
                return None
            schema, params = shape.model_json_schema(), Params(max_tokens=max_tokens)
            try:
                completion = client.complete(conversation, schema, params)
            except ModelError as exc:
                self.on_skip(f"{client.role} model failed: {exc}")
                return None
            model = client.model
            key = cache_key(model.backend, model.model, conversation, schema, params)
            self.budget.charge(key, completion, client.role)
            try:
                return parse_reply(completion.text, shape)
            except (ValueError, ValidationError) as exc:
                conversation = [
                    *messages,
                    {"role": "assistant", "content": completion.text},
                    {
                        "role": "user",
                        "content": f"Invalid reply ({str(exc)[:300]}). Reply "
                        "again with only a JSON object matching the schema.",
                    },
                ]
        return None


def model_plan(models: ResearchModels, plan: Plan) -> Plan:
    """The deterministic plan with its sub-questions drafted by the `reason` model, when one
    is configured and its reply is valid; the deterministic queries are kept beside the
    model's so retrieval never depends on the model alone."""
    if models.reason is None:
        return plan
    messages: list[Message] = [
        {"role": "system", "content": "You plan literature reviews. Reply with JSON only."},
        {
            "role": "user",
            "content": f"Topic: {plan.topic}\nWrite 4 to 8 sub-questions that a review of this "
            f"topic must answer, each with a facet (one of {', '.join(FACETS)}) and 1 to 4 "
            "short search queries.",
        },
    ]
    reply = models.ask(models.reason, messages, PlanReply, PLAN_MAX_TOKENS)
    if reply is None:
        return plan
    fallback = {q.facet: q for q in plan.sub_questions}
    questions = []
    for n, drafted in enumerate(reply.sub_questions, start=1):
        template = fallback[drafted.facet]
        queries = [q.strip() for q in drafted.queries if q.strip()] + template.queries[:1]
        questions.append(
            SubQuestion(
                id=f"q{n}",
                text=" ".join(drafted.question.split()),
                facet=drafted.facet,
                queries=list(dict.fromkeys(queries)),
                terms=list(dict.fromkeys(plan.topic_terms + content_terms(drafted.question))),
            )
        )
    return Plan(plan.topic, plan.key_phrases, plan.topic_terms, questions)


def model_screen(
    models: ResearchModels, topic: str, title: str, abstract: str
) -> ScreenReply | None:
    """The `screen` model's verdict on one paper, or None (no model, no budget, no valid reply)."""
    if models.screen is None:
        return None
    paper = json.dumps({"title": title, "abstract": abstract[:1500]}, ensure_ascii=False)
    messages: list[Message] = [
        {"role": "system", "content": "You screen papers for a literature review. JSON only."},
        {
            "role": "user",
            "content": f"Topic: {topic}\nPaper: {paper}\nIs the paper relevant "
            "to the topic? Give a one-sentence reason.",
        },
    ]
    return models.ask(models.screen, messages, ScreenReply, SCREEN_MAX_TOKENS)
