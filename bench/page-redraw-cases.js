// The tutorial page's redraw cases (`--only=page-redraw`): for each heavy figure, at the page's
// default settings and at the heaviest settings its controls allow, a slider moved as when it
// is dragged. `query` is the permalink query that sets the case up; `figure` the heatmap whose picture
// the slider redraws. Targets (issue 13's quality bar): median ≤ 50 ms at default settings,
// ≤ 100 ms at the heaviest ones, from the input event to the picture being updated.
export const PAGE_REDRAW_TARGETS_MS = { default: 50, heaviest: 100 };

export const PAGE_REDRAW_CASES = [
  {
    id: 'sinusoidal-default',
    label: '§3 sinusoidal table 128×128',
    query: '',
    slider: 'ctl-pe-seq-range',
    figure: 'sinusoidal-table',
    load: 'default',
  },
  {
    id: 'sinusoidal-heaviest',
    label: '§3 sinusoidal table 2048×2048',
    query: 'pe.seq=2048&pe.d=2048',
    slider: 'ctl-pe-seq-range',
    figure: 'sinusoidal-table',
    load: 'heaviest',
  },
  {
    id: 'relative-default',
    label: '§6 PE·PE 128×128, d 64',
    query: '',
    slider: 'ctl-rd-d-range',
    figure: 'relative-distance',
    load: 'default',
  },
  {
    id: 'relative-heaviest',
    label: '§6 PE·PE 1024×1024, d 512',
    query: 'rd.seq=1024&rd.d=512',
    slider: 'ctl-rd-d-range',
    figure: 'relative-distance',
    load: 'heaviest',
  },
  {
    id: 'rope-default',
    label: '§7 RoPE scores 1001×1001, head dim 64',
    query: '',
    slider: 'ctl-rope-hd-range',
    figure: 'rope-similarity',
    load: 'default',
  },
  {
    id: 'rope-heaviest',
    label: '§7 RoPE scores 2048×2048, head dim 256',
    query: 'rope.seq=2048&rope.hd=256',
    slider: 'ctl-rope-hd-range',
    figure: 'rope-similarity',
    load: 'heaviest',
  },
  {
    id: 'long-context-default',
    label: '§10 long context, 2 × L0, 256 cells',
    query: '',
    slider: 'ctl-lc-span-range',
    figure: 'long-context-plain',
    load: 'default',
  },
  {
    id: 'long-context-heaviest',
    label: '§10 long context, Qwen2.5 16 × L0, 512 cells',
    query: 'lc.preset=qwen2.5&lc.span=16&lc.cells=512',
    slider: 'ctl-lc-span-range',
    figure: 'long-context-plain',
    load: 'heaviest',
  },
  {
    id: 'naive-heaviest',
    label: '§2 naive encodings 4096 × 1024',
    query: 'naive.seq=4096&naive.d=1024',
    slider: 'ctl-naive-seq-range',
    figure: null,
    load: 'heaviest',
  },
  {
    id: 'comparison-heaviest',
    label: '§9 comparison 512 positions, d 256',
    query: 'cmp.seq=512&cmp.d=256',
    slider: 'ctl-cmp-d-range',
    figure: null,
    load: 'heaviest',
  },
  {
    id: 'facts-heaviest',
    label: '§8 facts 512 positions, d 256',
    query: 'fx.seq=512&fx.d=256',
    slider: 'ctl-fx-d-range',
    figure: null,
    load: 'heaviest',
  },
];
