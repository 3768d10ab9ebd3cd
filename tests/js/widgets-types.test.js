// posenc/widgets' declarations in the templates of the frameworks people build with: every tag
// in React 19's JSX (jsx: react-jsx, @types/react 19, strict), in Svelte 5's and Preact's global
// template namespaces and as Vue's component props, settings as numbers or the strings templates
// pass, attributes in kebab-case, events with their detail types; wrong types and unknown tags
// fail. (That a project with none of these frameworks type-checks them too is the package test's:
// its app has only posenc installed.)
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { typecheckScratch } from '../typecheck.js';

const WIDGETS = fileURLToPath(new URL('../../widgets/index.js', import.meta.url));
const REACT_TYPES = fileURLToPath(new URL('../../node_modules/@types/react/', import.meta.url));

const REACT_TSX = `
import * as React from 'react';
import type * as Widgets from '${WIDGETS}';
export function Figures() {
  const heatmap = React.useRef<Widgets.PeHeatmap>(null);
  const onPick = (event: CustomEvent<Widgets.PeHeatmapPick | null>) => console.log(event.detail?.fn);
  return (
    <div>
      <posenc-pe-heatmap ref={heatmap} className="wide" seq-len="64" dModel={32} base="1e4" layout="concat" controls
        onposenc-pick={onPick} onposenc-change={(event) => console.log(event.detail.settings.seqLen.toFixed())}
        onClick={(event) => event.currentTarget.toCSV()} />
      <posenc-rope-heatmap seqLen="128" head-dim={16} content="random" seed="3" />
      <posenc-vectors-2d offset={2} check="1,2" this={[0, '1']} out={[0.3, -1.1]} key="a" style={{ width: 300 }} />
      <posenc-worked-example the="0.5,0.1,0.8,0.3" cat={[0.2, 0.9, 0.4, 0.6]} theme="dark" />
      <posenc-attention encoding="alibi" domain={[-3, 3]} causal="on" l0="8" head={2} view="weights" controls="false"
        onposenc-invalid={(event) => console.log(event.detail.name, event.detail.message)} />
      <posenc-wavelengths dims="0,20" d-model="64" controls={false} />
      <posenc-rotation pair-values={[1, 0.5]} pair="1" position={5} ref={(element) => console.log(element?.rotation)}
        onposenc-pick={(event) => console.log(event.detail?.angle)} />
      <posenc-compare metric="dot" q="1,0.5" k={[1]} content="edited" controls="" />
      {/* @ts-expect-error: an unknown tag */}
      <posenc-nope />
      {/* @ts-expect-error: seq-len is a number */}
      <posenc-pe-heatmap seq-len="many" />
      {/* @ts-expect-error: seqLen is a number */}
      <posenc-pe-heatmap seqLen={[64]} />
      {/* @ts-expect-error: layout names are checked */}
      <posenc-pe-heatmap layout="neox" />
      {/* @ts-expect-error: dims is a list */}
      <posenc-wavelengths dims={3} />
      {/* @ts-expect-error: controls is a boolean */}
      <posenc-compare controls="yes" />
      {/* @ts-expect-error: theme names are checked */}
      <posenc-compare theme="sepia" />
      {/* @ts-expect-error: a rotation's pick has no row */}
      <posenc-rotation onposenc-pick={(event) => console.log(event.detail?.row)} />
      {/* @ts-expect-error: a ref to another element type */}
      <posenc-compare ref={heatmap} />
    </div>
  );
}
`;

const TEMPLATE_TS = `
// Svelte 5 (svelte-check reads svelteHTML) and Preact (its global preact.JSX): the same props.
const svelte: svelteHTML.IntrinsicElements['posenc-rotation'] = {
  position: '5',
  'd-model': 8,
  class: 'figure',
  'data-id': 'a',
  controls: '',
  'onposenc-pick': (event) => console.log(event.detail?.values[0]),
};
const preact: preact.JSX.IntrinsicElements['posenc-compare'] = {
  metric: 'cosine',
  q: '1,2',
  ref: (element: Widgets.Compare | null) => element?.setCursor(null),
};
// Vue: @posenc-pick is the prop onPosencPick.
const vue: Widgets.PosencVueProps<'posenc-rotation'> = {
  pairValues: [1, '0.5'],
  onPosencPick: (event: CustomEvent<Widgets.RotationPick | null>) => console.log(event.detail?.angle),
};
// Solid: the same, and on:posenc-pick (its JSX is solid-js/jsx-runtime's, where these are declared).
const solid: Widgets.PosencSolidIntrinsicElements['posenc-pe-heatmap'] = {
  'seq-len': 64,
  'on:posenc-pick': (event) => console.log(event.detail?.fn),
};
// @ts-expect-error: an unknown attribute
const unknown: svelteHTML.IntrinsicElements['posenc-rotation'] = { sequence: 3 };
// @ts-expect-error: an unknown tag
const missing: svelteHTML.IntrinsicElements['posenc-nope'] = {};
// @ts-expect-error: metric names are checked
const metric: preact.JSX.IntrinsicElements['posenc-compare'] = { metric: 'l2' };
// addEventListener knows each element's detail.
const rotation = document.createElement('posenc-rotation');
rotation.addEventListener('posenc-pick', (event) => console.log(event.detail?.angle));
rotation.addEventListener('posenc-change', (event) => console.log(event.detail.settings.pairValues));
// @ts-expect-error: a rotation's settings have no seqLen
rotation.addEventListener('posenc-change', (event) => console.log(event.detail.settings.seqLen));
rotation.controls = true;
console.log(svelte, preact, vue, solid, unknown, missing, metric);
`;

/** The React components of docs/widgets-in-frameworks.md (its tsx blocks), importing this repository's widgets. */
function docsReactExamples() {
  const docs = readFileSync(new URL('../../docs/widgets-in-frameworks.md', import.meta.url), 'utf8');
  const blocks = [...docs.matchAll(/```tsx\n([\s\S]*?)```/g)].map(([, tsx]) => tsx);
  if (blocks.length !== 2)
    throw new Error(`the docs hold ${blocks.length} tsx blocks, not the two (server, React) checked here`);
  return blocks.join('\n').replaceAll("'posenc/widgets'", `'${WIDGETS}'`);
}

// One program (one tsc run): the React components (this file's and the docs') and the other templates' props.
test('React 19 (jsx: react-jsx, @types/react 19, strict), Svelte 5, Preact, Vue and addEventListener: every tag, its settings as props or attributes, typed events and refs', () => {
  typecheckScratch(
    `${docsReactExamples()}${REACT_TSX}${TEMPLATE_TS}`,
    {
      jsx: 'react-jsx',
      lib: ['es2022', 'dom'],
      // The scratch folder has no node_modules: React's types are the repository's.
      paths: { react: [`${REACT_TYPES}index.d.ts`], 'react/jsx-runtime': [`${REACT_TYPES}jsx-runtime.d.ts`] },
    },
    'consumer.tsx',
  );
});
