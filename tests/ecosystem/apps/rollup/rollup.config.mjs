// Rollup's getting-started configuration for an app with npm dependencies: node-resolve, ES output.
import { nodeResolve } from '@rollup/plugin-node-resolve';

export default {
  input: 'main.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve()],
};
