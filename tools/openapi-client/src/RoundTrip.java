import java.util.ArrayList;
import java.util.List;
import org.openapitools.client.ApiClient;
import org.openapitools.client.ApiException;
import org.openapitools.client.api.DiagnosisAgrajagApi;
import org.openapitools.client.api.DispatcherApi;
import org.openapitools.client.api.LookupsApi;
import org.openapitools.client.api.ManifestApi;
import org.openapitools.client.model.AgrajagSetUnavailableArguments;
import org.openapitools.client.model.AgrajagToolName;
import org.openapitools.client.model.AgrajagToolResultView;
import org.openapitools.client.model.AnnotateManifestDto;
import org.openapitools.client.model.AnnotatedManifestView;
import org.openapitools.client.model.BatchedFailureReportDto;
import org.openapitools.client.model.BatchedSuccessReportDto;
import org.openapitools.client.model.OutcomeBatchDto;
import org.openapitools.client.model.OutcomeBatchDtoItemsInner;
import org.openapitools.client.model.OutcomeBatchItemView;
import org.openapitools.client.model.OutcomeBatchView;
import org.openapitools.client.model.CallContextDto;
import org.openapitools.client.model.EffectiveHealthView;
import org.openapitools.client.model.FailureOutcomeView;
import org.openapitools.client.model.FailureReason;
import org.openapitools.client.model.FailureReportDto;
import org.openapitools.client.model.InvokeAgrajagToolDto;
import org.openapitools.client.model.InvokeAgrajagToolDtoArguments;
import org.openapitools.client.model.Scope;
import org.openapitools.client.model.SuccessOutcomeView;
import org.openapitools.client.model.SuccessReportDto;
import org.openapitools.client.model.ToolErrorCode;
import org.openapitools.client.model.ToolManifestDto;
import org.openapitools.client.model.ToolStatus;

/**
 * The README's dispatcher round trip through the Java client openapi-generator makes of the
 * served OpenAPI document (library "native", default settings). Usage:
 * RoundTrip <baseUri> <dispatcher key> <tool-health-writer key>. Prints one line per step and
 * "ROUND TRIP OK" at the end; exits 1 at the first answer that differs from the README.
 */
public class RoundTrip {
  private static final List<String> failures = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    ApiClient dispatcher = client(args[0], args[1]);
    ApiClient writer = client(args[0], args[2]);
    DispatcherApi outcomes = new DispatcherApi(dispatcher);
    CallContextDto context = new CallContextDto().sessionId("s-7").userId("alice").projectId("p-1").tenantId("acme");
    FailureReportDto failure = new FailureReportDto().toolName("jira_search").context(context)
        .code(ToolErrorCode.BACKEND_FAILED).errorSignature("http-502").message("502 Bad Gateway");

    FailureOutcomeView first = outcomes.reportFailure(failure, null);
    step("1 reportFailure", first.getSpawn() && first.getReason() == FailureReason.ELIGIBLE && !first.getReflectError()
        && first.getRetryAfterSeconds() == null && first.getStatus() == ToolStatus.OK
        && "jira_search:http-502".equals(first.getCoalescingKey()) && first.getCooldown() == null, first);

    AgrajagSetUnavailableArguments verdict = new AgrajagSetUnavailableArguments().toolName("jira_search")
        .scope(AgrajagSetUnavailableArguments.ScopeEnum.PROJECT).scopeId("p-1")
        .classification(AgrajagSetUnavailableArguments.ClassificationEnum.INTERMITTENT)
        .note("gateway 502 every few calls").errorSignature("http-502");
    AgrajagToolResultView diagnosed = new DiagnosisAgrajagApi(writer).invokeAgrajagTool(AgrajagToolName.TOOL_HEALTH_SET_UNAVAILABLE,
        new InvokeAgrajagToolDto().by("agrajag-7f3c").arguments(new InvokeAgrajagToolDtoArguments(verdict)), null);
    step("2 invokeAgrajagTool", "jira_search is now DEGRADED at PROJECT.".equals(diagnosed.getSummary())
        && diagnosed.getEntry().getStatus() == ToolStatus.DEGRADED, diagnosed.getSummary());

    FailureOutcomeView again = outcomes.reportFailure(failure, null);
    step("3 reportFailure", !again.getSpawn() && again.getReason() == FailureReason.IN_COOLDOWN && again.getReflectError()
        && Integer.valueOf(30).equals(again.getRetryAfterSeconds()) && again.getStatus() == ToolStatus.DEGRADED
        && again.getCooldown().getScope() == Scope.PROJECT && "p-1".equals(again.getCooldown().getScopeId())
        && "http-502".equals(again.getCooldown().getErrorSignature()) && again.getCooldown().getUserId() == null, again);

    AnnotatedManifestView manifest = new ManifestApi(dispatcher).annotateManifest(new AnnotateManifestDto()
        .addToolsItem(new ToolManifestDto().name("jira_search").description("Search Jira issues."))
        .addToolsItem(new ToolManifestDto().name("calculator").description("Evaluate arithmetic."))
        .context(context).timeZone("Europe/Berlin"));
    step("annotateManifest", manifest.getTools().size() == 2 && manifest.getTools().get(0).getStatus() == ToolStatus.DEGRADED
        && manifest.getTools().get(0).getSuffix().startsWith("intermittent") && manifest.getTools().get(1).getStatus() == ToolStatus.OK,
        manifest.getTools().get(0).getSuffix());

    EffectiveHealthView lookup = new LookupsApi(dispatcher).lookupAvailability("jira_search", "s-7", "alice", "p-1", "acme");
    step("lookupAvailability", lookup.getStatus() == ToolStatus.DEGRADED && !lookup.getRetesting()
        && lookup.getWinner().getScope() == Scope.PROJECT, lookup.getStatus());

    SuccessOutcomeView cleared = outcomes.reportSuccess(new SuccessReportDto().toolName("jira_search").context(context).addErrorSignaturesItem("http-502"), null);
    step("4 reportSuccess", cleared.getStatus() == ToolStatus.OK && cleared.getChanged().size() == 1
        && cleared.getChanged().get(0).getScope() == Scope.PROJECT && cleared.getChanged().get(0).getStatus() == ToolStatus.OK, cleared);
    SuccessOutcomeView nothing = outcomes.reportSuccess(new SuccessReportDto().toolName("jira_search").context(context), null);
    step("4 reportSuccess again", nothing.getStatus() == ToolStatus.OK && nothing.getChanged().isEmpty(), nothing);

    // D22: the same reports in one batch, answered in order; a bad one answered alone.
    OutcomeBatchView batch = outcomes.reportOutcomes(new OutcomeBatchDto()
        .addItemsItem(new OutcomeBatchDtoItemsInner(new BatchedFailureReportDto().outcome(BatchedFailureReportDto.OutcomeEnum.FAILURE)
            .toolName("jira_search").context(context).code(ToolErrorCode.BACKEND_FAILED).errorSignature("http-502")))
        .addItemsItem(new OutcomeBatchDtoItemsInner(new BatchedSuccessReportDto().outcome(BatchedSuccessReportDto.OutcomeEnum.SUCCESS)
            .toolName("jira search").context(context)))
        .addItemsItem(new OutcomeBatchDtoItemsInner(new BatchedSuccessReportDto().outcome(BatchedSuccessReportDto.OutcomeEnum.SUCCESS)
            .toolName("jira_search").context(context))), null);
    List<OutcomeBatchItemView> results = batch.getResults();
    step("5 reportOutcomes", results.size() == 3
        && results.get(0).getStatus() == 200 && results.get(0).getFailure().getSpawn() && results.get(0).getFailure().getReason() == FailureReason.ELIGIBLE
        && results.get(1).getStatus() == 400 && "toolName".equals(results.get(1).getError().getField())
        && results.get(2).getStatus() == 200 && results.get(2).getSuccess().getStatus() == ToolStatus.OK
        && results.get(2).getSuccess().getChanged().isEmpty(), batch);

    try {
      outcomes.reportFailure(new FailureReportDto().toolName("jira search").code(ToolErrorCode.BACKEND_FAILED).errorSignature("http-502"), null);
      step("invalid toolName is refused", false, "no exception");
    } catch (ApiException e) {
      step("invalid toolName is refused", e.getCode() == 400 && e.getResponseBody().contains("\"field\":\"toolName\""), e.getCode() + " " + e.getResponseBody());
    }

    if (!failures.isEmpty()) {
      System.out.println("ROUND TRIP FAILED: " + failures);
      System.exit(1);
    }
    System.out.println("ROUND TRIP OK");
  }

  private static ApiClient client(String baseUri, String key) {
    ApiClient client = new ApiClient();
    client.updateBaseUri(baseUri);
    client.setRequestInterceptor(request -> request.header("x-api-key", key));
    return client;
  }

  private static void step(String name, boolean ok, Object answer) {
    System.out.println((ok ? "ok   " : "FAIL ") + name + ": " + String.valueOf(answer).replaceAll("\\s+", " "));
    if (!ok) failures.add(name);
  }
}
