import type { ApolloServerPlugin } from '@apollo/server';
import { playgroundHtml } from './playground.page';

/**
 * Apollo's landing page hook serves the page on `GET /graphql` when the browser asks for HTML
 * (with `playground: false`, so Nest adds no CDN-backed page). Public (D17): the page holds no
 * data, every operation it sends still needs a key.
 */
export function playgroundLandingPagePlugin(assetsPath: string): ApolloServerPlugin {
  const html = playgroundHtml(assetsPath);
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}
