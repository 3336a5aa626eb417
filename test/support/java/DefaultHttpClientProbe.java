import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The platform dispatcher's HTTP stack in miniature (issue 12, P60): java.net.http.HttpClient with
 * its defaults (version HTTP_2 preferred, so every http:// request carries
 * `Connection: Upgrade, HTTP2-Settings` and `Upgrade: h2c`). Run as `java DefaultHttpClientProbe.java
 * BASE_URL API_KEY`; prints one line per call: `METHOD PATH STATUS VERSION BODY`. The request
 * timeout turns "the service never answers" into a failure instead of a hang.
 */
public class DefaultHttpClientProbe {
  public static void main(String[] args) throws Exception {
    String base = args[0];
    String key = args[1];
    HttpClient client = HttpClient.newHttpClient();
    System.out.println("client-version " + client.version());
    Duration timeout = Duration.ofSeconds(10);

    HttpRequest ready = HttpRequest.newBuilder(URI.create(base + "/health/ready")).timeout(timeout).GET().build();
    print("GET", "/health/ready", client.send(ready, HttpResponse.BodyHandlers.ofString()));

    String outcome = "{\"toolName\":\"java-probe\",\"code\":\"BACKEND_FAILED\",\"errorSignature\":\"http-500\",\"context\":{\"userId\":\"java\"}}";
    HttpRequest failure = HttpRequest.newBuilder(URI.create(base + "/v1/outcomes/failure"))
        .timeout(timeout)
        .header("content-type", "application/json")
        .header("x-api-key", key)
        .POST(HttpRequest.BodyPublishers.ofString(outcome))
        .build();
    print("POST", "/v1/outcomes/failure", client.send(failure, HttpResponse.BodyHandlers.ofString()));

    // Again on the same client: the connection it kept (or a new one) must answer too.
    print("GET", "/health/ready", client.send(ready, HttpResponse.BodyHandlers.ofString()));
  }

  private static void print(String method, String path, HttpResponse<String> response) {
    System.out.println(method + " " + path + " " + response.statusCode() + " " + response.version() + " " + response.body().replace('\n', ' '));
  }
}
