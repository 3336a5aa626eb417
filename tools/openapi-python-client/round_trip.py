"""The dispatcher's round trip through the Python client openapi-python-client makes of the
committed openapi.json with its default settings, unedited (issue 36). Usage:

    python round_trip.py <base url> <dispatcher key>

with the generated package on PYTHONPATH (tools/openapi-python-client/build.mjs prints where).
Prints one line per step and "ROUND TRIP OK" at the end; exits 1 when any step's answer is not
what the service documents (an exception in the generated code counts as a failed step).
"""

import sys
import traceback
import uuid

from tool_availability_service_client import AuthenticatedClient
from tool_availability_service_client.api.dispatcher import report_failure, report_outcomes
from tool_availability_service_client.api.lookups import lookup_availability
from tool_availability_service_client.api.manifest import annotate_manifest, annotate_manifest_changes
from tool_availability_service_client.api.system_writes import mark_tool_unavailable
from tool_availability_service_client.models import (
    AnnotateChangesDto,
    AnnotateManifestDto,
    BatchedFailureReportDto,
    BatchedFailureReportDtoOutcome,
    BatchedSuccessReportDto,
    BatchedSuccessReportDtoOutcome,
    CallContextDto,
    ErrorBody,
    FailureReason,
    FailureReportDto,
    ManifestToolRefDto,
    MarkUnavailableDto,
    OutcomeBatchDto,
    Scope,
    ToolErrorCode,
    ToolManifestDto,
    ToolStatus,
)

failures: list[str] = []


def step(name, run):
    """Runs one step; its check returns (ok, what to print)."""
    try:
        ok, shown = run()
    except Exception:  # the generated client raising is what this test exists to catch
        ok, shown = False, traceback.format_exc().strip().splitlines()[-1]
    print(("ok   " if ok else "FAIL ") + name + ": " + " ".join(str(shown).split())[:300], flush=True)
    if not ok:
        failures.append(name)


def main(base_url: str, key: str) -> None:
    client = AuthenticatedClient(base_url=base_url, token=key, prefix="", auth_header_name="x-api-key")
    context = CallContextDto(session_id="s-7", user_id="alice", project_id="p-1", tenant_id="acme")
    failure = FailureReportDto(
        tool_name="jira_search", context=context, code=ToolErrorCode.BACKEND_FAILED, error_signature="http-502", message="502 Bad Gateway"
    )

    def reported():
        answer = report_failure.sync_detailed(client=client, body=failure)
        view = answer.parsed
        return (
            answer.status_code == 200
            and view.spawn
            and view.reason == FailureReason.ELIGIBLE
            and view.retry_after_seconds is None
            and view.cooldown is None
            and view.status == ToolStatus.OK
            and view.coalescing_key == "jira_search:http-502"
            and isinstance(view.why, list),
            view,
        )

    step("1 failure report", reported)

    def annotated():
        answer = annotate_manifest.sync_detailed(
            client=client,
            body=AnnotateManifestDto(
                tools=[ToolManifestDto(name="jira_search", description="Search Jira issues."), ToolManifestDto(name="calculator", description="Evaluate arithmetic.")],
                context=context,
                time_zone="Europe/Berlin",
            ),
        )
        tools = answer.parsed.tools
        return answer.status_code == 200 and [t.name for t in tools] == ["jira_search", "calculator"] and all(t.status == ToolStatus.OK for t in tools), answer.parsed

    step("2 annotation", annotated)

    def batched():
        answer = report_outcomes.sync_detailed(
            client=client,
            body=OutcomeBatchDto(
                items=[
                    BatchedFailureReportDto(
                        outcome=BatchedFailureReportDtoOutcome.FAILURE, tool_name="jira_search", context=context, code=ToolErrorCode.BACKEND_FAILED, error_signature="http-502"
                    ),
                    BatchedSuccessReportDto(outcome=BatchedSuccessReportDtoOutcome.SUCCESS, tool_name="jira search", context=context),
                    BatchedSuccessReportDto(outcome=BatchedSuccessReportDtoOutcome.SUCCESS, tool_name="jira_search", context=context),
                ]
            ),
        )
        results = answer.parsed.results
        return (
            answer.status_code == 200
            and [r.status for r in results] == [200, 400, 200]
            and isinstance(results[0].failure.reason, FailureReason)
            and isinstance(results[1].error, ErrorBody)
            and results[1].error.field == "toolName"
            and results[2].success.status == ToolStatus.OK,
            answer.parsed,
        )

    step("3 batch", batched)

    def written():
        answer = mark_tool_unavailable.sync_detailed(
            client=client,
            body=MarkUnavailableDto(scope=Scope.PROJECT, scope_id="p-1", tool_name="jira_search", source="gateway", code=ToolErrorCode.BACKEND_FAILED, note="502 from the gateway"),
        )
        view = answer.parsed
        return answer.status_code == 200 and view.status == ToolStatus.DOWN and view.scope == Scope.PROJECT and view.scope_id == "p-1", view

    step("4 system write", written)

    def changed():
        answer = annotate_manifest_changes.sync_detailed(
            client=client,
            body=AnnotateChangesDto(tools=[ManifestToolRefDto(name="jira_search"), ManifestToolRefDto(name="calculator")], context=context),
        )
        view = answer.parsed
        return answer.status_code == 200 and view.plain == 1 and [t.name for t in view.tools] == ["jira_search"] and view.tools[0].status == ToolStatus.DOWN, view

    step("5 annotation by difference", changed)

    def looked_up():
        answer = lookup_availability.sync_detailed("jira_search", client=client, session_id="s-7", user_id="alice", project_id="p-1", tenant_id="acme")
        view = answer.parsed
        return answer.status_code == 200 and view.status == ToolStatus.DOWN and view.winner.scope == Scope.PROJECT and view.winner.scope_id == "p-1", view

    step("6 lookup", looked_up)

    def replayed():
        key = str(uuid.uuid4())
        other = FailureReportDto(tool_name="calculator", context=context, code=ToolErrorCode.BACKEND_UNREACHABLE, error_signature="connect-timeout")
        first = report_failure.sync_detailed(client=client, body=other, idempotency_key=key)
        again = report_failure.sync_detailed(client=client, body=other, idempotency_key=key)
        return (
            first.status_code == 200
            and again.status_code == 200
            and first.content == again.content
            and again.headers.get("idempotent-replayed") == "true",
            f"{again.status_code} {again.headers.get('idempotent-replayed')} {again.parsed}",
        )

    step("7 idempotent replay", replayed)

    if failures:
        print("ROUND TRIP FAILED: " + ", ".join(failures))
        sys.exit(1)
    print("ROUND TRIP OK")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
