// posenc/inline: the .wasm embedded (base64, one lazily imported chunk per build), for CDNs,
// CodePen, Observable, single-file pages and bundlers that do not copy assets.
import { makeLoadPosenc } from './load.js';
import { findWasmInline } from './wasm-source-inline.js';

export * from './api.js';
export const loadPosenc = makeLoadPosenc(findWasmInline);
