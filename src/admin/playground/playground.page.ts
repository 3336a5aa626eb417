/**
 * The playground page and its start script. Every URL is relative to the page, which is served at
 * the GraphQL endpoint itself (`/graphql`), so the page also works behind a path prefix.
 */

export const PLAYGROUND_SCRIPT_FILE = 'playground.js';

/**
 * The playground's default document (P65): one query, one mutation and one subscription, each
 * valid against the schema (a test validates it against schema.gql). GraphiQL asks which one to
 * run when there are several.
 */
export const DEFAULT_QUERY = `# Tool availability service: admin GraphQL API
#
# 1. Put your API key in the Headers tab below: {"x-api-key": "<your key>"}
#    Queries and subscriptions need an admin or audit-reader key,
#    mutations an admin key. Subscriptions send the same headers in
#    graphql-ws connection_init. The schema (Docs, Explorer, completion)
#    loads once the key is there.
# 2. Put the cursor in one operation and run it with Ctrl-Enter or the
#    run button. The Explorer (compass icon, left) builds operations by
#    clicking through the schema.

# How many entries the tool "example" has, per status (empty until one is written).
query ExampleOverview {
  toolOverview(toolName: "example") {
    total
    byStatus { status count }
  }
}

# Admin key: marks the tool "example" DEGRADED globally (undo: markAvailable).
mutation MarkExampleDegraded {
  markIntermittent(input: { scope: GLOBAL, toolName: "example", note: "tried from the playground" }) {
    id
    status
  }
}

# Live updates: runs until stopped; run the mutation above in a second tab to see one.
subscription LiveUpdates {
  toolHealthChanged(scope: GLOBAL) {
    id
    type
    toolName
    status
    at
    payload {
      __typename
      ... on StatusChangedPayload { previousStatus code }
    }
  }
}
`;

/**
 * No inline script (script-src 'self'); `connect-src 'self'` lets the page talk to this origin
 * only (HTTP and, in CSP level 3 browsers, ws:/wss: to the same host).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function playgroundHtml(assetsPath: string): string {
  const a = (file: string) => `${assetsPath}${file}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="robots" content="noindex">
<title>Tool availability service · GraphiQL</title>
<link rel="stylesheet" href="${a('graphiql/graphiql.min.css')}">
<link rel="stylesheet" href="${a('plugin-explorer/style.css')}">
<style>html, body, #graphiql { height: 100%; margin: 0; } body { overflow: hidden; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${a('react/react.production.min.js')}"></script>
<script src="${a('react-dom/react-dom.production.min.js')}"></script>
<script src="${a('graphiql/graphiql.min.js')}"></script>
<script src="${a('plugin-explorer/index.umd.js')}"></script>
<script src="${a(PLAYGROUND_SCRIPT_FILE)}"></script>
</body>
</html>
`;
}

/**
 * Starts GraphiQL with the Explorer plugin, HTTP and graphql-ws on this very endpoint. The headers
 * editor's values go with every request and, for subscriptions, in graphql-ws `connection_init`.
 * Introspection needs a key too (D17), so when the key in the headers editor changes GraphiQL
 * gets a fresh fetcher, which makes it load the schema again with the new headers.
 */
export function playgroundScript(): string {
  return `'use strict';
(function () {
  var endpoint = window.location.origin + window.location.pathname;
  var subscriptionUrl = endpoint.replace(/^http/, 'ws');
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var plugins = [GraphiQLPluginExplorer.explorerPlugin()];
  var currentKey = '';
  var timer = null;

  function keyIn(headersText) {
    try {
      var headers = JSON.parse(headersText || '{}');
      if (!headers || typeof headers !== 'object') return null;
      for (var name in headers) if (name.toLowerCase() === 'x-api-key') return String(headers[name]);
      return '';
    } catch (e) {
      return null; // half-typed JSON: wait for more
    }
  }

  function onEditHeaders(text) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var key = keyIn(text);
      if (key === null || key === currentKey) return;
      currentKey = key;
      render();
    }, 400);
  }

  function render() {
    root.render(
      React.createElement(GraphiQL, {
        fetcher: GraphiQL.createFetcher({ url: endpoint, subscriptionUrl: subscriptionUrl }),
        plugins: plugins,
        defaultQuery: ${JSON.stringify(DEFAULT_QUERY)},
        defaultHeaders: ${JSON.stringify(JSON.stringify({ 'x-api-key': '' }, null, 2))},
        defaultEditorToolsVisibility: 'headers',
        isHeadersEditorEnabled: true,
        shouldPersistHeaders: false,
        onEditHeaders: onEditHeaders
      })
    );
  }

  render();
})();
`;
}
