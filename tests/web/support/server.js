// Serves web/ (so the built page lives under the sub-path /site/) for the duration of a test file.
import { startServer } from '../../../scripts/serve.js';
import { WEB } from './build.js';

export async function serveWeb() {
  const server = await startServer({ root: WEB, port: 0 });
  return { ...server, pageUrl: `${server.url}site/`, origin: new URL(server.url).origin };
}
