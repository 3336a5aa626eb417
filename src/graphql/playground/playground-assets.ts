import { dirname, join } from 'node:path';

/** URL prefix of everything the playground page loads (served from the project's node_modules). */
export const PLAYGROUND_ASSETS_PREFIX = '/graphql-assets/';

/** A folder of one installed package, served under `/graphql-assets/<name>/`, only the listed files. */
export interface AssetFolder {
  name: string;
  root: string;
  files: readonly string[];
}

function packageDir(pkg: string): string {
  return dirname(require.resolve(`${pkg}/package.json`));
}

/**
 * GraphiQL 3.9 (UMD; CSS with its fonts inlined), React 18 UMD, the Explorer plugin and the
 * graphql-ws client's UMD build (global `graphqlWs`; the copy bundled in GraphiQL cannot be told
 * which close codes not to retry, P100): no CDN, so the page works without internet access.
 */
export function playgroundAssetFolders(): AssetFolder[] {
  return [
    { name: 'react', root: join(packageDir('react'), 'umd'), files: ['react.production.min.js'] },
    { name: 'react-dom', root: join(packageDir('react-dom'), 'umd'), files: ['react-dom.production.min.js'] },
    { name: 'graphiql', root: packageDir('graphiql'), files: ['graphiql.min.js', 'graphiql.min.css'] },
    { name: 'plugin-explorer', root: join(packageDir('@graphiql/plugin-explorer'), 'dist'), files: ['index.umd.js', 'style.css'] },
    { name: 'graphql-ws', root: join(packageDir('graphql-ws'), 'umd'), files: ['graphql-ws.min.js'] },
  ];
}
