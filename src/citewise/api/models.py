"""Library methods for language models (citewise.llm, agent/generation/generate.py): the roles of
citewise.toml, generated answers verified sentence by sentence, chat, usage and doctor.

Mixed into `Library` (api/library.py), first among its bases."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from citewise.config import ModelSettings, Settings
from citewise.llm.base import parse_spec as parse_spec  # a face's --llm BACKEND:MODEL, checked

if TYPE_CHECKING:
    from citewise.agent.ask.answer import Answer
    from citewise.agent.ask.chat import ChatSession
    from citewise.agent.ask.qa import QuestionAnswerer
    from citewise.agent.comparison.compare_answer import ComparativeAnswer
    from citewise.agent.generation.generate import GeneratedAnswerer
    from citewise.api.compare import Pick
    from citewise.llm.client import ModelClient
    from citewise.llm.doctor import Check, RoleReport
    from citewise.llm.usage import UsageSummary
    from citewise.store.protocols import Store
    from citewise.store.sqlite.library import StoredDocument

__all__ = ["ModelMethods"]


class ModelMethods:
    """Needs Library's store, settings, prepare(), answerer, ask(), document() and the
    comparison methods (declared for the type checker only, so nothing here shadows them)."""

    if TYPE_CHECKING:
        store: Store
        settings: Settings
        _generators: dict[tuple[str | None, str | None, bool], GeneratedAnswerer | None]

        @property
        def answerer(self) -> QuestionAnswerer: ...

        def prepare(self) -> object: ...

        def document(self, doc_id: str) -> StoredDocument: ...

        def ask(
            self,
            question: str,
            documents: list[str] | None = None,
            k: int = 8,
            review: bool = True,
            trace: bool = False,
        ) -> Answer: ...

        def ask_comparison(
            self,
            question: str,
            doc_ids: tuple[str, ...] = (),
            model: ModelClient | None | Literal[Pick.CONFIGURED] = ...,
        ) -> ComparativeAnswer | None: ...

        def extract_model(
            self, llm: str | None = None, llm_url: str | None = None
        ) -> ModelClient | None: ...

    @property
    def model_settings(self) -> ModelSettings:
        """Roles and backends from citewise.toml ($CITEWISE_CONFIG, the library, ~/.config)."""
        return self.settings.models

    def generator(
        self, llm: str | None = None, llm_url: str | None = None, use_cache: bool = True
    ) -> GeneratedAnswerer | None:
        """The generated-answer path for `--llm BACKEND:MODEL` (else the `write` role of
        citewise.toml); None when that is the extractive backend."""
        from citewise.llm.registry import role_clients

        self.prepare()
        key = (llm, llm_url, use_cache)
        if key not in self._generators:
            settings = self.model_settings
            override = parse_spec(llm, llm_url) if llm else None
            audit = self.store.audit
            writers = role_clients("write", settings, audit, override, use_cache)
            verbatim_first = bool(writers) and writers[0].model.backend == "extractive"
            if verbatim_first:  # a model only where the verbatim answer is unsure
                writers = [w for w in writers[1:] if w.model.backend != "extractive"]
            if not writers:  # the extractive answer: no generation code loaded
                self._generators[key] = None
                return None
            from citewise.agent.generation.generate import GeneratedAnswerer
            from citewise.agent.generation.verify import Verifier

            judges = role_clients("judge", settings, audit, use_cache=use_cache)
            verifier = Verifier(self.answerer.retriever.embedder, judges[0] if judges else None)
            self._generators[key] = GeneratedAnswerer(
                self.answerer,
                writers,
                verifier,
                cascade_threshold=settings.cascade_threshold,
                verbatim_first=verbatim_first,
            )
        return self._generators[key]

    def ask_with_model(
        self,
        question: str,
        documents: list[str] | None = None,
        k: int = 8,
        llm: str | None = None,
        llm_url: str | None = None,
        use_cache: bool = True,
        trace: bool = False,
    ) -> Answer:
        """Like `ask`, but a language model writes the answer; every sentence is verified
        against the evidence it cites. Falls back to `ask` for the extractive backend (with
        `trace`, its answer says what each answer shape proposed)."""
        from citewise.api.checks import check_question

        check_question(question)  # an empty question is a usage error, not a model call
        generator = self.generator(llm, llm_url, use_cache)
        if generator is None:
            return self.ask(question, documents, k, trace=trace)
        doc_ids = tuple(self.document(d).id for d in documents or [])
        comparison = self.ask_comparison(question, doc_ids, self.extract_model(llm, llm_url))
        return comparison or generator.ask(question, doc_ids, k)

    def models_for(
        self, role: str, use_cache: bool = True, task: str | None = None
    ) -> list[ModelClient]:
        """The client(s) citewise.toml gives a role (two for a cascade), cached and logged in
        this library; empty when the role is served by plain code."""
        from citewise.llm.registry import role_clients

        return role_clients(role, self.model_settings, self.store.audit, None, use_cache, task)

    def usage(self, task: str | None = None) -> UsageSummary:
        """Model calls logged in this library: the `citewise usage --json` object."""
        from citewise.llm.usage import usage_summary

        return usage_summary(self.store.audit, task)

    def chat(
        self,
        documents: list[str] | None = None,
        k: int = 8,
        llm: str | None = None,
        llm_url: str | None = None,
        use_cache: bool = True,
    ) -> ChatSession:
        """A conversation: every turn re-retrieves; history only resolves references
        (with the `reason` role, or --llm, when one is set)."""
        from citewise.agent.ask.chat import ChatSession
        from citewise.llm.registry import role_clients

        override = parse_spec(llm, llm_url) if llm else None
        resolvers = role_clients(
            "reason", self.model_settings, self.store.audit, override, use_cache
        )
        resolver = (
            resolvers[0] if resolvers and resolvers[0].model.backend != "extractive" else None
        )
        return ChatSession(
            lambda q: self.ask_with_model(q, documents, k, llm, llm_url, use_cache), resolver
        )

    def doctor(self, llm: str | None = None, llm_url: str | None = None) -> list[RoleReport]:
        """Which model serves each role, and whether it is reachable."""
        from citewise.llm.doctor import doctor

        return doctor(self.model_settings, parse_spec(llm, llm_url) if llm else None)

    def check_embedding(self) -> Check:
        """The embedding model of the settings: is the bundled one installed, or does the
        configured server embed?"""
        from citewise.embed.settings import embed_settings
        from citewise.llm.doctor import check_embedding

        return check_embedding(embed_settings(self.settings), self.settings.environ)
