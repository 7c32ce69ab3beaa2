"""Settings that fill the definition templates, read once from the environment.

Every placeholder in ``index_definitions/`` has one source here, so a user can see in one place
what a deployment needs. Names follow the ``azd`` outputs convention (``AZURE_*``) and match what
``skills.embeddings`` reads for the embedding deployment, so one ``.env`` serves both.

>>> s = SearchSettings(prefix="demo")
>>> s.names("reference")["parentsIndexName"]
'demo-reference-parents'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from skills.formats.registry import FORMATS, FileFormat, by_format, indexed_extensions, text_formats

#: ``embedded`` and ``reference`` index text files, parsed by the indexer (``parsingMode: text``),
#: with the parent text in each child or in a parents index; ``files`` hands every file the skill
#: converts to it whole (``file_data``), ``layout`` hands files to the Document Layout skill first
#: (scans and images too); both keep the parent text in each child, as ``embedded`` does.
Mode = Literal["embedded", "reference", "files", "layout"]
MODES: tuple[Mode, ...] = get_args(Mode)
#: What the Document Layout skill reads: PDF, JPEG, JPG, PNG, BMP, TIFF, DOCX, XLSX, PPTX, HTML
#: (https://learn.microsoft.com/azure/search/cognitive-search-skill-document-intelligence-layout).
LAYOUT_FORMATS = ("pdf", "image", "docx", "xlsx", "pptx", "html")


def indexed_formats(mode: Mode) -> tuple[FileFormat, ...]:
    """The formats a mode's indexer picks up."""
    if mode == "files":
        return FORMATS
    if mode == "layout":
        return tuple(fmt for name in LAYOUT_FORMATS if (fmt := by_format(name)) is not None)
    return text_formats()


def parents_in_children(mode: Mode) -> bool:
    """Whether each child carries its parent's text (every mode but ``reference``)."""
    return mode != "reference"


#: Seconds a query may take, all its requests to the search service together, before it fails
#: with :class:`skills.search.query.QueryTimeout`: a query answers in well under a second, a
#: semantic one or a cold vectorizer's in a few; without a bound, a service that stops answering
#: held a query for azure-core's defaults (a read waits 300 s and is tried again, 10 times).
QUERY_TIMEOUT_SECONDS = 30


class SettingsError(ValueError):
    """A setting is missing or inconsistent; the message names the environment variable."""


@dataclass(frozen=True)
class SearchSettings:
    """Everything the templates and the deploy/query commands need.

    Defaults suit a development deployment; the Azure endpoints have none on purpose, because a
    deploy without them cannot work. ``skill_function_key`` and ``skill_auth_resource_id`` are the
    two ways the search service authenticates to the Function App: give exactly one for Azure.
    """

    search_endpoint: str | None = None
    openai_endpoint: str = "https://example.openai.azure.com"
    embedding_deployment: str = "text-embedding-3-small"
    embedding_model: str = "text-embedding-3-small"
    dimensions: int = 1536
    skill_uri: str = "https://example.azurewebsites.net/api/chunk"
    skill_function_key: str | None = None
    skill_auth_resource_id: str | None = None
    skill_batch_size: int = 4
    skill_degree_of_parallelism: int = 2
    #: files travel base64-encoded (4/3 of their size) and the Function App takes at most 100 MB
    #: a request: one file per call keeps a 75 MB file within it
    file_skill_batch_size: int = 1
    #: the Azure AI services (Foundry) resource that bills the Document Layout skill
    ai_services_endpoint: str = "https://example.cognitiveservices.azure.com"
    storage_resource_id: str = (
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg"
        "/providers/Microsoft.Storage/storageAccounts/example"
    )
    storage_blob_endpoint: str | None = None
    container: str = "documents"
    container_folder: str | None = None
    search_sku: str = "basic"
    prefix: str = "hcs"
    indexer_schedule: str = "PT1H"
    indexer_batch_size: int = 10
    max_failed_items: int = -1
    query_timeout_seconds: int = QUERY_TIMEOUT_SECONDS

    def __post_init__(self) -> None:
        if self.skill_function_key and self.skill_auth_resource_id:
            raise SettingsError(
                "give SKILL_FUNCTION_KEY or SKILL_AUTH_RESOURCE_ID, not both: the search service "
                "sends either a function key header or a managed-identity token"
            )
        if not 1 <= self.skill_degree_of_parallelism <= 10:
            raise SettingsError("SKILL_DEGREE_OF_PARALLELISM must be between 1 and 10")
        if self.dimensions < 1:
            raise SettingsError("AZURE_OPENAI_EMBEDDING_DIMENSIONS must be positive")
        if self.query_timeout_seconds < 1:
            raise SettingsError("AZURE_SEARCH_QUERY_TIMEOUT_SECONDS must be a positive number")

    def names(self, mode: Mode) -> dict[str, str]:
        """The object names of one mode; both modes can live side by side in one service."""
        base = f"{self.prefix}-{mode}"
        return {
            "dataSourceName": f"{base}-blobs",
            "childrenIndexName": f"{base}-children",
            "parentsIndexName": f"{base}-parents",
            "skillsetName": f"{base}-skillset",
            "indexerName": f"{base}-indexer",
        }

    def template_values(self, mode: Mode) -> dict[str, Any]:
        """Placeholder name -> value for :func:`skills.search.templates.render`."""
        return {
            **self.names(mode),
            "openaiEndpoint": self.openai_endpoint,
            "embeddingDeployment": self.embedding_deployment,
            "embeddingModel": self.embedding_model,
            "dimensions": self.dimensions,
            "skillUri": self.skill_uri,
            "skillFunctionKey": self.skill_function_key,
            "skillAuthResourceId": self.skill_auth_resource_id,
            "skillBatchSize": self.skill_batch_size,
            "skillDegreeOfParallelism": self.skill_degree_of_parallelism,
            "storageResourceId": self.storage_resource_id,
            "container": self.container,
            "containerFolder": self.container_folder,
            "indexerSchedule": self.indexer_schedule,
            "indexerBatchSize": self.indexer_batch_size,
            "maxFailedItems": self.max_failed_items,
            "indexedFileNameExtensions": indexed_extensions(indexed_formats(mode)),
            "fileSkillBatchSize": self.file_skill_batch_size,
            "aiServicesEndpoint": self.ai_services_endpoint,
        }

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SearchSettings:
        """Read :data:`ENVIRONMENT` variables; unset ones keep their defaults."""
        env = os.environ if environ is None else environ
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, Any] = {}
        for variable, attribute in ENVIRONMENT.items():
            raw = env.get(variable)
            if raw is None or raw == "":
                continue
            values[attribute] = _convert(variable, raw, str(types[attribute]))
        return cls(**values)


#: Settings that name a service the command line sends a key or a token to: https, or http on
#: this machine only (the tests' and the simulation's stand-in services).
HTTPS_SETTINGS = frozenset({"AZURE_SEARCH_ENDPOINT"})
_HTTPS_URL = re.compile(
    r"(?:https://[^\s/?#]+|http://(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?)(?:/\S*)?"
)
_MAX_URL_CHARS = 2048


def _convert(variable: str, raw: str, type_name: str) -> Any:
    if variable in HTTPS_SETTINGS and (
        len(raw) > _MAX_URL_CHARS or not _HTTPS_URL.fullmatch(raw.strip())
    ):
        raise SettingsError(
            f"{variable} must be an https:// URL (https://NAME.search.windows.net; http only on "
            f"127.0.0.1), got "
            f"{raw[:60]!r}{'...' if len(raw) > 60 else ''}"
        )
    if type_name.startswith("int"):
        try:
            return int(raw)
        except ValueError as error:
            raise SettingsError(f"{variable} must be an integer, got {raw!r}") from error
    return raw


#: environment variable -> :class:`SearchSettings` attribute
ENVIRONMENT: dict[str, str] = {
    "AZURE_SEARCH_ENDPOINT": "search_endpoint",
    "AZURE_OPENAI_ENDPOINT": "openai_endpoint",
    "AZURE_OPENAI_EMBEDDING_DEPLOYMENT": "embedding_deployment",
    "AZURE_OPENAI_EMBEDDING_MODEL": "embedding_model",
    "AZURE_OPENAI_EMBEDDING_DIMENSIONS": "dimensions",
    "SKILL_URI": "skill_uri",
    "SKILL_FUNCTION_KEY": "skill_function_key",
    "SKILL_AUTH_RESOURCE_ID": "skill_auth_resource_id",
    "SKILL_BATCH_SIZE": "skill_batch_size",
    "SKILL_DEGREE_OF_PARALLELISM": "skill_degree_of_parallelism",
    "SKILL_FILE_BATCH_SIZE": "file_skill_batch_size",
    "AZURE_AI_SERVICES_ENDPOINT": "ai_services_endpoint",
    "AZURE_STORAGE_RESOURCE_ID": "storage_resource_id",
    "AZURE_STORAGE_BLOB_ENDPOINT": "storage_blob_endpoint",
    "AZURE_SEARCH_SKU": "search_sku",
    "AZURE_STORAGE_CONTAINER": "container",
    "AZURE_STORAGE_FOLDER": "container_folder",
    "AZURE_SEARCH_PREFIX": "prefix",
    "AZURE_SEARCH_INDEXER_SCHEDULE": "indexer_schedule",
    "AZURE_SEARCH_INDEXER_BATCH_SIZE": "indexer_batch_size",
    "AZURE_SEARCH_MAX_FAILED_ITEMS": "max_failed_items",
    "AZURE_SEARCH_QUERY_TIMEOUT_SECONDS": "query_timeout_seconds",
}


def missing_azure_settings(
    environ: Mapping[str, str] | None = None, mode: Mode = "embedded"
) -> list[str]:
    """The variables a real deployment of ``mode`` still needs (the defaults above only stand
    in for them)."""
    env = os.environ if environ is None else environ
    return [name for name in required_for_azure(mode) if not env.get(name)]


#: what a real deployment of any mode cannot do without
REQUIRED_FOR_AZURE: tuple[str, ...] = (
    "AZURE_SEARCH_ENDPOINT",
    "AZURE_OPENAI_ENDPOINT",
    "AZURE_OPENAI_EMBEDDING_DEPLOYMENT",
    "SKILL_URI",
    "AZURE_STORAGE_RESOURCE_ID",
)
#: what one mode needs besides (``layout`` bills Document Layout to an AI Services resource)
REQUIRED_BY_MODE: dict[Mode, tuple[str, ...]] = {"layout": ("AZURE_AI_SERVICES_ENDPOINT",)}


def required_for_azure(mode: Mode) -> tuple[str, ...]:
    return REQUIRED_FOR_AZURE + REQUIRED_BY_MODE.get(mode, ())


#: settings whose default only stands in for a real resource, so that templates render offline
STAND_INS: dict[str, str] = {
    "AZURE_OPENAI_ENDPOINT": SearchSettings.openai_endpoint,
    "SKILL_URI": SearchSettings.skill_uri,
    "AZURE_AI_SERVICES_ENDPOINT": SearchSettings.ai_services_endpoint,
    "AZURE_STORAGE_RESOURCE_ID": SearchSettings.storage_resource_id,
}


def stand_ins(settings: SearchSettings, mode: Mode) -> dict[str, str]:
    """Variable -> stand-in value, for every setting ``mode`` renders that still holds its
    stand-in: a deploy must never send one (the layout skillset would bill to
    ``example.cognitiveservices.azure.com``), and a dry run says which it filled.

    >>> sorted(stand_ins(SearchSettings(), "layout"))  # doctest: +NORMALIZE_WHITESPACE
    ['AZURE_AI_SERVICES_ENDPOINT', 'AZURE_OPENAI_ENDPOINT', 'AZURE_STORAGE_RESOURCE_ID',
     'SKILL_URI']
    >>> "AZURE_AI_SERVICES_ENDPOINT" in stand_ins(SearchSettings(), "embedded")
    False
    """
    used = set(required_for_azure(mode))
    return {
        variable: value
        for variable, value in STAND_INS.items()
        if variable in used and getattr(settings, ENVIRONMENT[variable]) == value
    }
