"""The modules fit together: what main.bicep passes, reads and declares is what the modules offer.

Bicep would report these at compile time; without the CLI, these checks stand in for the part of
its type check that matters most when editing (a renamed param or output).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from infra_bicep import BicepFile, Expr, Module, identifiers
from infra_paths import INFRA, MAIN, PARAMETERS, bicep_files, load

AZD_VALUE = re.compile(r"^\$\{(?P<name>[A-Z0-9_]+)(?:=(?P<default>[^}]*))?\}$")


def main_modules() -> list[Module]:
    return load(MAIN).modules


def target(mod: Module) -> BicepFile:
    return load((MAIN.parent / mod.path).resolve())


@pytest.mark.parametrize("mod", main_modules(), ids=lambda m: m.symbol)
def test_module_path_exists(mod: Module) -> None:
    assert (MAIN.parent / mod.path).is_file()


@pytest.mark.parametrize("mod", main_modules(), ids=lambda m: m.symbol)
def test_module_gets_every_required_param_and_no_unknown_one(mod: Module) -> None:
    declared = target(mod).params
    passed = set(mod.body["params"])
    required = {name for name, p in declared.items() if p.default is None}
    assert passed <= set(declared), f"unknown params: {passed - set(declared)}"
    assert required <= passed, f"missing params: {required - passed}"


def test_every_module_output_read_in_main_exists() -> None:
    text = MAIN.read_text(encoding="utf-8")
    by_symbol = {m.symbol: target(m) for m in main_modules()}
    reads = re.findall(r"\b(\w+)\.outputs\.(\w+)", text)
    assert reads
    for symbol, output in reads:
        assert output in by_symbol[symbol].outputs, f"{symbol}.outputs.{output}"


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: p.name)
def test_every_param_is_used(path: Path) -> None:
    doc = load(path)
    body = "\n".join(
        n.text.decode()
        for n in doc.root.named_children
        if n.type not in {"parameter_declaration", "decorators", "comment"} and n.text
    )
    used = identifiers(body)
    unused = [name for name in doc.params if name not in used]
    assert unused == []


def test_principals_reach_the_rbac_module_from_the_right_identities() -> None:
    (rbac,) = [m for m in main_modules() if m.path == "modules/rbac.bicep"]
    params = rbac.body["params"]
    assert params["functionPrincipalId"] == Expr("functionIdentity.outputs.principalId")
    assert params["searchPrincipalId"] == Expr("search.outputs.principalId")
    assert params["deployerPrincipalId"] == Expr("principalId")
    assert params["hostStorageAccountName"] == Expr("hostStorage.outputs.name")
    assert params["documentsStorageAccountName"] == Expr("documentsStorage.outputs.name")


def test_function_app_waits_for_its_role_assignments() -> None:
    (app,) = [m for m in main_modules() if m.path == "modules/function-app.bicep"]
    assert app.body["dependsOn"] == [Expr("rbac")]


def parameters_file() -> dict[str, dict[str, object]]:
    data = json.loads(PARAMETERS.read_text(encoding="utf-8"))
    assert isinstance(data["parameters"], dict)
    return data["parameters"]


def test_parameters_file_names_only_main_params() -> None:
    assert set(parameters_file()) <= set(load(MAIN).params)


def test_parameters_file_supplies_every_param_without_default() -> None:
    required = {name for name, p in load(MAIN).params.items() if p.default is None}
    assert required <= set(parameters_file())


def test_parameters_file_defaults_are_allowed_values() -> None:
    """`${VAR=default}` is azd's syntax; a default outside @allowed fails only at deploy time."""
    params = load(MAIN).params
    checked = 0
    for name, entry in parameters_file().items():
        match = AZD_VALUE.match(str(entry["value"]))
        assert match, f"{name}: expected an azd ${{VAR}} reference"
        default = match.group("default")
        allowed = params[name].decorators.get("allowed")
        if default is None or allowed is None:
            continue
        values = [str(v) for v in allowed]
        assert default in values, f"{name}: {default!r} not in {values}"
        checked += 1
    assert checked >= 3


def test_parameters_file_defaults_match_template_defaults() -> None:
    """One default per setting: the azd fallback and the Bicep default agree."""
    params = load(MAIN).params
    for name, entry in parameters_file().items():
        match = AZD_VALUE.match(str(entry["value"]))
        assert match
        default, declared = match.group("default"), params[name].default
        if default is not None and declared is not None and not isinstance(declared, Expr):
            assert default == str(declared), name


def test_infra_folder_holds_no_bicepparam_file() -> None:
    """The offline parser cannot read .bicepparam; azd reads main.parameters.json."""
    assert not list(INFRA.rglob("*.bicepparam"))
