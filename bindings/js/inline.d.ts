// posenc/inline has the same API as the default entry (index.d.ts).
export * from './index.js';
