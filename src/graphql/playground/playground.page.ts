/**
 * The playground page and its start script. Every URL is relative to the page, which is served at
 * the GraphQL endpoint itself (`/graphql`), so the page also works behind a path prefix.
 */

import { API_KEY_HEADER } from '../../auth/api-key.guard';
import { Role } from '../../domain/role';
import { GRAPHQL_ROLES } from '../graphql-limits';
import { SUBSCRIBER_ROLES, WS_CLOSE_FORBIDDEN, WS_CLOSE_UNAUTHORIZED } from '../graphql-ws.options';

export const PLAYGROUND_SCRIPT_FILE = 'playground.js';

/**
 * The playground's default document (P65): one query, one mutation and one subscription, each
 * valid against the schema without deprecated fields (a test validates it against schema.gql).
 * GraphiQL asks which one to run when there are several.
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

# Admin key: marks the tool "example" DEGRADED globally (undo: markToolAvailable).
mutation MarkExampleDegraded {
  markToolIntermittent(input: { scope: GLOBAL, toolName: "example", note: "tried from the playground" }) {
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
      ... on CooldownPayload { errorSignature }
    }
  }
}
`;

/**
 * No inline script (script-src 'self'); `connect-src 'self'` lets the page talk to this origin
 * only (HTTP and, in CSP level 3 browsers, ws:/wss: to the same host). The graphql-ws client is
 * one more script from 'self'.
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

/** The playground's notice bar (a refused schema load) above GraphiQL; GraphiQL fills the rest. */
const PAGE_STYLE = [
  'html, body, #graphiql { height: 100%; margin: 0; } body { overflow: hidden; }',
  '.tas-playground { display: flex; flex-direction: column; height: 100%; }',
  '.tas-notice { padding: 8px 16px; font: 14px/1.4 system-ui, sans-serif; background: #fff4e5; color: #5f3400; border-bottom: 1px solid #f0c48a; }',
  '.tas-graphiql { flex: 1 1 0; min-height: 0; }',
].join('\n');

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
<style>${PAGE_STYLE}</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${a('react/react.production.min.js')}"></script>
<script src="${a('react-dom/react-dom.production.min.js')}"></script>
<script src="${a('graphiql/graphiql.min.js')}"></script>
<script src="${a('plugin-explorer/index.umd.js')}"></script>
<script src="${a('graphql-ws/graphql-ws.min.js')}"></script>
<script src="${a(PLAYGROUND_SCRIPT_FILE)}"></script>
</body>
</html>
`;
}

function roleList(roles: readonly Role[]): string {
  return [...new Set([Role.ADMIN, ...roles])].join(', ');
}

/**
 * What the playground adds to a refusal (HTTP 401/403, WebSocket close 4401/4403) so that it says
 * what to do: where the key goes and which roles each kind of operation needs (D17; mutations
 * are admin-only, AdminMutationsResolver).
 */
export function accessHints(): { unauthorized: string; forbidden: string } {
  const readers = roleList(GRAPHQL_ROLES);
  const subscribers = roleList(SUBSCRIBER_ROLES);
  const needs =
    readers === subscribers
      ? `Queries, subscriptions and the schema (Docs, Explorer) need a key with one of the roles: ${readers}; mutations: ${Role.ADMIN}.`
      : `Queries and the schema (Docs, Explorer) need a key with one of the roles: ${readers}; subscriptions: ${subscribers}; mutations: ${Role.ADMIN}.`;
  return {
    unauthorized: `Put a known API key in the Headers tab as {"${API_KEY_HEADER}": "<key>"}. ${needs}`,
    forbidden: `This key lacks the role. ${needs} Put such a key in the Headers tab as {"${API_KEY_HEADER}": "<key>"}.`,
  };
}

/**
 * Starts GraphiQL with the Explorer plugin and its own fetcher (P100): HTTP through fetch, where a
 * 401/403 becomes a GraphQL error whose message names the header and the roles (GraphiQL shows
 * it in the response pane; for the schema load also in a notice above, as its Docs panel only
 * says "Error fetching schema"); subscriptions through graphql-ws with the headers editor's
 * values as `connection_init` payload, one client per run, no retry after close 4401/4403 (the
 * close reason becomes the response). Introspection needs a key too (D17), so when the key in
 * the headers editor changes GraphiQL gets a fresh fetcher, which makes it load the schema again.
 */
export function playgroundScript(): string {
  const hints = accessHints();
  return `'use strict';
(function () {
  var endpoint = window.location.origin + window.location.pathname;
  var subscriptionUrl = endpoint.replace(/^http/, 'ws');
  var HINTS = ${JSON.stringify(hints)};
  var REFUSED_CLOSE_CODES = [${WS_CLOSE_UNAUTHORIZED}, ${WS_CLOSE_FORBIDDEN}];
  var INTROSPECTION = 'IntrospectionQuery';
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var plugins = [GraphiQLPluginExplorer.explorerPlugin()];
  var currentKey = '';
  var fetcher = createFetcher();
  var schemaNotice = null;
  var timer = null;

  function keyIn(headersText) {
    try {
      var headers = JSON.parse(headersText || '{}');
      if (!headers || typeof headers !== 'object') return null;
      for (var name in headers) if (name.toLowerCase() === ${JSON.stringify(API_KEY_HEADER)}) return String(headers[name]);
      return '';
    } catch (e) {
      return null; // half-typed JSON: wait for more
    }
  }

  function refusal(message, status) {
    var hint = status === 401 ? HINTS.unauthorized : HINTS.forbidden;
    return {
      errors: [{ message: (message ? message + '. ' : '') + hint, extensions: { code: status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN' } }]
    };
  }

  function setSchemaNotice(text) {
    if (text === schemaNotice) return;
    schemaNotice = text;
    render();
  }

  function httpFetch(params, opts) {
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    var given = (opts && opts.headers) || {};
    for (var name in given) headers[name] = given[name];
    return fetch(endpoint, { method: 'POST', headers: headers, body: JSON.stringify(params) }).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try {
          body = JSON.parse(text);
        } catch (e) {
          // not JSON: reported below
        }
        var serverMessage = body && body.errors && body.errors[0] && body.errors[0].message;
        var result;
        if (response.status === 401 || response.status === 403) result = refusal(serverMessage, response.status);
        else if (body && typeof body === 'object') result = body;
        else result = { errors: [{ message: 'HTTP ' + response.status + ': ' + text.slice(0, 500) }] };
        if (params.operationName === INTROSPECTION) {
          var refused = response.status === 401 || response.status === 403;
          setSchemaNotice(refused ? 'The schema (Docs, Explorer, completion) did not load: ' + result.errors[0].message : null);
        }
        return result;
      });
    });
  }

  function isSubscription(documentAST, operationName) {
    if (!documentAST) return false;
    var operations = documentAST.definitions.filter(function (d) {
      return d.kind === 'OperationDefinition';
    });
    var chosen = operations.filter(function (d) {
      return operationName ? d.name && d.name.value === operationName : operations.length === 1;
    })[0];
    return !!chosen && chosen.operation === 'subscription';
  }

  function isCloseEvent(value) {
    return !!value && typeof value === 'object' && 'code' in value && 'reason' in value;
  }

  /** An observable (GraphiQL subscribes to it and unsubscribes on stop) over one graphql-ws client. */
  function wsFetch(params, opts) {
    return {
      subscribe: function (sink) {
        var client = graphqlWs.createClient({
          url: subscriptionUrl,
          connectionParams: (opts && opts.headers) || {},
          retryAttempts: 3,
          shouldRetry: function (e) {
            return isCloseEvent(e) && REFUSED_CLOSE_CODES.indexOf(e.code) < 0;
          }
        });
        var stop = client.subscribe(
          { query: params.query, variables: params.variables, operationName: params.operationName },
          {
            next: function (value) {
              sink.next(value);
            },
            error: function (error) {
              client.dispose();
              if (isCloseEvent(error) && REFUSED_CLOSE_CODES.indexOf(error.code) >= 0) {
                sink.next(refusal(error.reason, error.code === ${WS_CLOSE_UNAUTHORIZED} ? 401 : 403));
                sink.complete();
              } else if (isCloseEvent(error)) {
                sink.error(new Error(('Socket closed with event ' + error.code + ' ' + (error.reason || '')).trim()));
              } else {
                sink.error(error);
              }
            },
            complete: function () {
              client.dispose();
              sink.complete();
            }
          }
        );
        return {
          unsubscribe: function () {
            stop();
            client.dispose();
          }
        };
      }
    };
  }

  function createFetcher() {
    return function (params, opts) {
      return isSubscription(opts && opts.documentAST, params.operationName) ? wsFetch(params, opts) : httpFetch(params, opts);
    };
  }

  function onEditHeaders(text) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var key = keyIn(text);
      if (key === null || key === currentKey) return;
      currentKey = key;
      fetcher = createFetcher();
      render();
    }, 400);
  }

  function render() {
    var h = React.createElement;
    root.render(
      h(
        'div',
        { className: 'tas-playground' },
        schemaNotice ? h('div', { className: 'tas-notice', role: 'alert' }, schemaNotice) : null,
        h(
          'div',
          { className: 'tas-graphiql' },
          h(GraphiQL, {
            fetcher: fetcher,
            plugins: plugins,
            defaultQuery: ${JSON.stringify(DEFAULT_QUERY)},
            defaultHeaders: ${JSON.stringify(JSON.stringify({ [API_KEY_HEADER]: '' }, null, 2))},
            defaultEditorToolsVisibility: 'headers',
            isHeadersEditorEnabled: true,
            shouldPersistHeaders: false,
            onEditHeaders: onEditHeaders
          })
        )
      )
    );
  }

  render();
})();
`;
}
