// Serves web/ (so the built pages live under the sub-path /site/) for the duration of a test file:
// pageUrl is the lesson (the site's front page), companionUrl the advanced companion.
import { startServer } from '../../../scripts/serve.js';
import { WEB } from './build.js';

export async function serveWeb() {
  const server = await startServer({ root: WEB, port: 0 });
  return {
    ...server,
    pageUrl: `${server.url}site/`,
    companionUrl: `${server.url}site/companion.html`,
    origin: new URL(server.url).origin,
  };
}
