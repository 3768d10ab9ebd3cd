// Images and multimodal: 2-D RoPE on a grid of image patches (Pixtral's and SAM 2's variants of
// posenc.ropeGrid) with the reader's picked patch scored against every patch, beside 1-D RoPE
// over the flattened patch order; and the (t, h, w) position ids Qwen2-VL gives a prompt of text
// and images (posenc.mropePositions). Every score and id on it comes from posenc.
import {
  choiceControl,
  controlRow,
  numberControl,
  rerollButton,
  selectControl,
  textControl,
} from '../../../widgets/controls.js';
import { byId, h, labelCellsByHeader } from '../../../widgets/dom.js';
import { formatSig, formatSigText, quantity, withMinus } from '../../../widgets/format.js';
import { extent } from '../../../widgets/plots/colormap.js';
import { createHeatmap } from '../../../widgets/plots/heatmap.js';
import { coalesceToAnimationFrame } from '../../../widgets/schedule.js';
import { randomQueryKey } from '../../../widgets/tokens.js';
import { tile } from '../../../widgets/vectors.js';

export const id = 'images';

const GRID_MAX = 64;
const HEAD_DIMS = ['8', '16', '32', '64', '128', '256']; // multiples of 4: both variants take them
const BASE = 10000; // Pixtral's rope_theta and SAM 2's

export const settings = {
  'img.rows': { type: 'int', default: 16, min: 2, max: GRID_MAX },
  'img.cols': { type: 'int', default: 16, min: 2, max: GRID_MAX },
  'img.variant': { type: 'enum', default: 'pixtral', values: ['pixtral', 'axial'] },
  'img.dim': { type: 'enum', default: '64', values: HEAD_DIMS },
  'img.row': {
    type: 'int',
    default: 7,
    min: 0,
    max: GRID_MAX - 1,
    maxFrom: (get) => get('img.rows') - 1,
    maxNote: 'a row of the grid: below img.rows',
  },
  'img.col': {
    type: 'int',
    default: 7,
    min: 0,
    max: GRID_MAX - 1,
    maxFrom: (get) => get('img.cols') - 1,
    maxNote: 'a column of the grid: below img.cols',
  },
  'img.content': { type: 'enum', default: 'same', values: ['same', 'qk'] },
  'img.seed': { type: 'int', default: 1, min: 1, max: 999999 },
  'img.prompt': { type: 'text', default: 'text 5, image 1x8x12, text 4', maxLength: 200 },
  'img.model': { type: 'enum', default: 'qwen2-vl', values: ['qwen2-vl', 'qwen2.5-vl'] },
};

const VARIANTS = {
  pixtral: { label: 'Pixtral (rows and columns on alternate frequencies)', layout: 'half' },
  axial: { label: 'SAM 2 axial (columns, then rows)', layout: 'interleaved' },
};

const CONTENT_OPTIONS = [
  { value: 'same', label: 'one random vector for every patch, key = query' },
  { value: 'qk', label: 'random query, independent random key' },
];

const PANELS = [
  { key: 'grid', title: '2-D RoPE (row and column)' },
  { key: 'flat', title: '1-D RoPE over the flattened order' },
];

// ---- the M-RoPE prompt -----------------------------------------------------------------------

const PROMPT_PRESETS = [
  { label: 'Describe this image', prompt: 'text 5, image 1x8x12, text 4' },
  { label: 'Two images', prompt: 'text 3, image 1x4x6, text 3, image 1x6x4, text 4' },
  { label: 'A video, 2 s per grid', prompt: 'text 4, video 3x4x6 @2, text 5' },
];

const PROMPT_LIMITS = { segments: 12, text: 200, frames: 16, side: 64, tokens: 1024 };

/**
 * The prompt text as posenc.mropePositions' segments: comma-separated `text n`, `image TxHxW`
 * or `video TxHxW @s` (s: seconds per grid). { segments } or { error } saying what is wrong.
 */
function parsePrompt(text) {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return { error: 'The prompt is empty: write segments such as “text 5, image 1x8x12”.' };
  if (parts.length > PROMPT_LIMITS.segments) return { error: `At most ${PROMPT_LIMITS.segments} segments.` };
  const segments = [];
  for (const [index, part] of parts.entries()) {
    const textMatch = /^text\s+(\d+)$/i.exec(part);
    const visionMatch = /^(image|video)\s+(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(\d+)(?:\s*@\s*(\d+(?:\.\d+)?))?$/i.exec(part);
    const where = `segment ${index + 1} (“${part.slice(0, 30)}”)`;
    if (textMatch) {
      const n = Number(textMatch[1]);
      if (n < 1 || n > PROMPT_LIMITS.text) return { error: `${where}: text takes 1 to ${PROMPT_LIMITS.text} tokens.` };
      segments.push({ text: n });
    } else if (visionMatch) {
      const kind = visionMatch[1].toLowerCase();
      const grid = visionMatch.slice(2, 5).map(Number);
      if (grid[0] < 1 || grid[0] > PROMPT_LIMITS.frames)
        return { error: `${where}: t must be 1 to ${PROMPT_LIMITS.frames}.` };
      if (grid[1] < 1 || grid[2] < 1 || grid[1] > PROMPT_LIMITS.side || grid[2] > PROMPT_LIMITS.side)
        return { error: `${where}: h and w must be 1 to ${PROMPT_LIMITS.side} patches.` };
      if (visionMatch[5] !== undefined && kind !== 'video')
        return { error: `${where}: only a video has seconds per grid (@s).` };
      segments.push(
        kind === 'video' && visionMatch[5] !== undefined
          ? { video: grid, secondsPerGrid: Number(visionMatch[5]) }
          : { [kind]: grid },
      );
    } else {
      return { error: `${where} is not “text n”, “image TxHxW” or “video TxHxW @s”.` };
    }
  }
  return { segments };
}

/** Tokens of a segment: text n, or t · (h / 2) · (w / 2) after the 2 × 2 merge. */
function segmentTokens(segment, merge) {
  if ('text' in segment) return segment.text;
  const [t, hh, ww] = segment.image ?? segment.video;
  return t * Math.floor(hh / merge) * Math.floor(ww / merge);
}

const MERGE = 2; // Qwen2-VL's and Qwen2.5-VL's vision_config.spatial_merge_size

function kindOf(segment) {
  return 'text' in segment ? 'text' : 'image' in segment ? 'image' : 'video';
}

/** The ids of tokens from … to − 1 on one row of `positions` ([3, seqLen]), as "lo–hi". */
function idRange(positions, seqLen, row, from, to) {
  const [lo, hi] = extent(positions.subarray(row * seqLen + from, row * seqLen + to));
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

export function mount({ posenc, state }) {
  mountGrid({ posenc, state });
  mountMrope({ posenc, state });
}

// ---- 2-D RoPE on a patch grid ----------------------------------------------------------------

function mountGrid({ posenc, state }) {
  const root = byId('images-grid-demo');
  let shown = null;

  const heatmaps = PANELS.map(({ key, title }) =>
    createHeatmap({
      name: `images-${key}`,
      title,
      xLabel: 'column',
      yLabel: 'row',
      valueLabel: 'score with the picked patch (one scale for both)',
      colormap: 'diverging',
      square: true,
      // The keyboard starts at the picked patch, so arrows move from it and Enter keeps it.
      focusCell: () => (shown ? { row: shown.row, col: shown.col } : null),
      readout: ({ row, col, value }) => {
        if (!shown) return '';
        const dr = row - shown.row;
        const dc = col - shown.col;
        const flat = row * shown.cols + col - (shown.row * shown.cols + shown.col);
        return `patch (row ${row}, column ${col}): ${formatSigText(value, 5)}; offset from the picked patch ${quantity(dr, 'row')}, ${quantity(dc, 'column')}; ${Math.abs(flat)} apart in the flattened order. Enter or Space picks it.`;
      },
      summary: ({ lo, hi }) =>
        shown
          ? `${key === 'grid' ? `2-D RoPE (${shown.variant === 'pixtral' ? 'Pixtral' : 'SAM 2 axial'})` : '1-D RoPE over the flattened patch index'}: the score of patch (row ${shown.row}, column ${shown.col})’s rotated query with the rotated key of every patch of the ${shown.rows} × ${shown.cols} grid, head dimension ${shown.headDim}; colour scale ${formatSigText(lo, 3)} to ${formatSigText(hi, 3)}, shared by both panels. The outlined cell is the picked patch.`
          : '',
    }),
  );
  const pick = (cell) => {
    if (!cell) return;
    state.set('img.row', cell.row);
    state.set('img.col', cell.col);
  };
  for (const heatmap of heatmaps) {
    let cursor = null;
    heatmap.onCursor((cell) => {
      cursor = cell;
    });
    heatmap.canvas.addEventListener('click', () => pick(cursor));
    heatmap.canvas.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      pick(cursor);
    });
  }

  const reroll = rerollButton(state, 'img.seed', {
    id: 'img-reroll',
    label: 'New random vectors',
    ariaLabel: 'New random vectors for the image-patch heatmaps',
  });
  const neighbours = h('table', { class: 'numbers stacks', id: 'img-neighbours' });
  const note = h('p', { class: 'result', id: 'img-grid-note' });
  root.append(
    controlRow(
      numberControl(state, 'img.rows', { label: 'grid rows' }),
      numberControl(state, 'img.cols', { label: 'grid columns' }),
      selectControl(state, 'img.dim', {
        label: 'head dimension',
        options: HEAD_DIMS.map((value) => ({ value, label: value })),
      }),
    ),
    controlRow(
      choiceControl(state, 'img.variant', {
        label: '2-D RoPE variant',
        options: Object.entries(VARIANTS).map(([value, { label }]) => ({ value, label })),
      }),
      choiceControl(state, 'img.content', { label: 'patch contents', options: CONTENT_OPTIONS }),
      reroll,
    ),
    controlRow(
      numberControl(state, 'img.row', { label: 'picked patch: row' }),
      numberControl(state, 'img.col', { label: 'picked patch: column' }),
    ),
    h(
      'p',
      { class: 'note' },
      'Pick a patch by clicking or tapping either heatmap, or focus one, move with the arrow keys and press Enter or Space.',
    ),
    h(
      'div',
      { class: 'plot-grid two' },
      heatmaps.map((heatmap) => heatmap.element),
    ),
    note,
    h('div', { class: 'table-scroll' }, neighbours),
  );

  function draw() {
    const rows = state.get('img.rows');
    const cols = state.get('img.cols');
    const variant = state.get('img.variant');
    const headDim = Number(state.get('img.dim'));
    const row = state.get('img.row');
    const col = state.get('img.col');
    const count = rows * cols;
    const picked = row * cols + col;
    const { q, k } = randomQueryKey(state.get('img.seed'), headDim);
    const key = state.get('img.content') === 'same' ? q : k;

    // The picked patch's rotated query against the rotated key of every patch, in patch order
    // (row-major), which is the heatmap's order.
    const scoresWith = (rotate) => {
      const keys = rotate(key);
      const queries = key === q ? keys : rotate(q);
      const query = queries.subarray(picked * headDim, (picked + 1) * headDim);
      return posenc.similarity(query, keys, { rows: 1, cols: count, dim: headDim });
    };
    const grid = scoresWith((v) => posenc.ropeGrid(tile(v, count), { rows, cols, headDim, base: BASE, variant }));
    const flat = scoresWith((v) =>
      posenc.rope(tile(v, count), { seqLen: count, headDim, base: BASE, layout: VARIANTS[variant].layout }),
    );
    // One scale for both panels: scores of both signs on the diverging map around 0; scores that
    // are all positive (q = k on a small grid turns the slow pairs little) on viridis over their
    // range, where the pattern would otherwise be a few tints of red.
    const [lo, hi] = extent(grid, flat);
    const reach = Math.max(-lo, hi);
    const [domain, colormap] = lo < 0 ? [[-reach, reach], 'diverging'] : [[lo, hi], 'viridis'];
    // The picked cell outlined.
    const [top, bottom, left, right] = [row - 0.5, row + 0.5, col - 0.5, col + 0.5];
    const outline = [
      { from: [top, left], to: [top, right] },
      { from: [top, right], to: [bottom, right] },
      { from: [bottom, right], to: [bottom, left] },
      { from: [bottom, left], to: [top, left] },
    ];
    shown = { rows, cols, row, col, variant, headDim, grid, flat };
    [grid, flat].forEach((values, j) => {
      heatmaps[j].draw({ values, rows, cols, domain, colormap, guides: outline });
    });

    const around = [
      ['above', -1, 0],
      ['below', 1, 0],
      ['left', 0, -1],
      ['right', 0, 1],
    ].filter(([, dr, dc]) => row + dr >= 0 && row + dr < rows && col + dc >= 0 && col + dc < cols);
    // In the first column the patch just before the picked one in the flattened order is not its
    // left neighbour but the last patch of the row above, at the other edge of the image.
    const before = col === 0 && row > 0 ? [['before it when flattened', -1, cols - 1]] : [];
    const at = (values, r, c) => values[r * cols + c];
    neighbours.replaceChildren(
      h('caption', {}, `The picked patch (row ${row}, column ${col}) and its neighbours`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [
            'neighbour',
            'patch (row, column)',
            'offset in the image',
            'distance when flattened',
            '2-D RoPE score',
            '1-D RoPE score',
          ].map((text) => h('th', { scope: 'col' }, text)),
        ),
      ),
      h(
        'tbody',
        {},
        [['itself', 0, 0], ...around, ...before].map(([name, dr, dc]) =>
          h(
            'tr',
            { dataset: { neighbour: name } },
            h('th', { scope: 'row' }, name),
            h('td', {}, `(${row + dr}, ${col + dc})`),
            h('td', {}, `${quantity(dr, 'row')}, ${quantity(dc, 'column')}`),
            h('td', {}, String(Math.abs(dr * cols + dc))),
            h('td', {}, formatSig(at(grid, row + dr, col + dc), 4)),
            h('td', {}, formatSig(at(flat, row + dr, col + dc), 4)),
          ),
        ),
      ),
    );
    labelCellsByHeader(neighbours);

    const vertical = around.find(([name]) => name === 'above' || name === 'below');
    const horizontal = around.find(([name]) => name === 'left' || name === 'right');
    const score = (values, [, dr, dc]) => formatSigText(at(values, row + dr, col + dc), 4);
    note.textContent =
      vertical && horizontal
        ? `In 2-D, the patch ${vertical[0]} and the patch to the ${horizontal[0]} are both one step away and score ${score(grid, vertical)} and ${score(grid, horizontal)}. ` +
          `Flattened, the patch ${vertical[0]} is ${cols} positions away and scores ${score(flat, vertical)}, while the patch to the ${horizontal[0]} is 1 away and scores ${score(flat, horizontal)}: ` +
          `1-D RoPE scores the neighbour ${vertical[0]} as it would score a token ${cols} positions away in a sentence.`
        : '';
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(
    ['img.rows', 'img.cols', 'img.variant', 'img.dim', 'img.row', 'img.col', 'img.content', 'img.seed'],
    request,
  );
  request();
}

// ---- M-RoPE position ids of a prompt ---------------------------------------------------------

const MODEL_NAMES = { 'qwen2-vl': 'Qwen2-VL', 'qwen2.5-vl': 'Qwen2.5-VL' };

/**
 * Where each video frame starts on the temporal row under both models (the first token of each
 * frame), as a sentence; empty for a prompt without video.
 */
function videoFrames(posenc, segments) {
  if (!segments.some((segment) => 'video' in segment)) return '';
  const parts = Object.entries(MODEL_NAMES).map(([model, name]) => {
    const { positions } = posenc.mropePositions({ segments, model });
    const starts = [];
    let start = 0;
    for (const segment of segments) {
      if ('video' in segment) {
        const perFrame = (segment.video[1] / MERGE) * (segment.video[2] / MERGE);
        for (let f = 0; f < segment.video[0]; f++) starts.push(positions[start + f * perFrame]);
      }
      start += segmentTokens(segment, MERGE);
    }
    return `${name} ${starts.join(', ')}`;
  });
  return `Temporal ids of the video frames: ${parts[0]}; ${parts[1]} (the video’s start + frame × whole seconds per grid × 2 tokens per second).`;
}

function mountMrope({ posenc, state }) {
  const root = byId('images-mrope-demo');
  const presets = PROMPT_PRESETS.map(({ label, prompt }, index) => {
    const button = h('button', { type: 'button', id: `img-preset-${index}` }, label);
    button.addEventListener('click', () => state.set('img.prompt', prompt));
    return button;
  });
  const problem = h('p', { class: 'notice', id: 'img-prompt-problem', role: 'status' });
  const totals = h('p', { class: 'result', id: 'img-mrope-totals' });
  const videoNote = h('p', { class: 'note', id: 'img-video-note' });
  const strip = h('div', { class: 'img-strip', id: 'img-strip' });
  const table = h('table', { class: 'numbers stacks', id: 'img-segments' });
  root.append(
    controlRow(
      textControl(state, 'img.prompt', { label: 'prompt segments (text n, image TxHxW, video TxHxW @s)' }),
      selectControl(state, 'img.model', {
        label: 'model',
        options: [
          { value: 'qwen2-vl', label: MODEL_NAMES['qwen2-vl'] },
          { value: 'qwen2.5-vl', label: `${MODEL_NAMES['qwen2.5-vl']} (2 tokens per second)` },
        ],
      }),
    ),
    h(
      'div',
      { class: 'controls', role: 'group', 'aria-label': 'Example prompts' },
      h('span', {}, 'Examples: '),
      presets,
    ),
    problem,
    totals,
    videoNote,
    h('div', { class: 'table-scroll' }, table),
    h(
      'div',
      { class: 'img-strip-scroll', tabindex: 0, role: 'region', 'aria-label': 'Every token with its (t, h, w) ids' },
      strip,
    ),
  );

  function draw() {
    const parsed = parsePrompt(state.get('img.prompt'));
    let result = null;
    let error = parsed.error;
    if (!error) {
      const tokens = parsed.segments.reduce((sum, segment) => sum + segmentTokens(segment, MERGE), 0);
      if (tokens > PROMPT_LIMITS.tokens)
        error = `This prompt has ${tokens} tokens; the page draws at most ${PROMPT_LIMITS.tokens}.`;
    }
    if (!error) {
      try {
        result = posenc.mropePositions({ segments: parsed.segments, model: state.get('img.model') });
      } catch (failure) {
        error = failure.message; // posenc names the segment and what is wrong with it
      }
    }
    problem.textContent = error ?? '';
    problem.hidden = !error;
    if (!result) {
      totals.textContent = '';
      strip.replaceChildren();
      table.replaceChildren();
      videoNote.textContent = '';
      return;
    }
    const { positions, nextPosition } = result;
    const seqLen = positions.length / 3;
    const id3 = (i) => [positions[i], positions[seqLen + i], positions[2 * seqLen + i]];
    totals.dataset.seqLen = String(seqLen);
    totals.dataset.nextPosition = String(nextPosition);
    totals.dataset.ropeDelta = String(nextPosition - seqLen);
    totals.textContent = `${seqLen} tokens; the largest id is ${nextPosition - 1}, so the first generated token gets (${nextPosition}, ${nextPosition}, ${nextPosition}) — nextPosition = ${nextPosition} — and the k-th ${nextPosition} + k on all three. Hugging Face’s rope delta, nextPosition − seqLen = ${nextPosition} − ${seqLen} = ${withMinus(String(nextPosition - seqLen))}, is what it adds to the cache position while decoding.`;

    const cell = (i, kind) => {
      const [t, hh, ww] = id3(i);
      return h(
        'span',
        {
          class: ['img-token', `img-${kind}`],
          dataset: { index: String(i), t: String(t), h: String(hh), w: String(ww) },
        },
        h('span', { class: 'img-token-index' }, `#${i}`),
        ` (${t}, ${hh}, ${ww})`,
      );
    };
    let start = 0;
    const blocks = [];
    const rowsOfTable = [];
    parsed.segments.forEach((segment, index) => {
      const kind = kindOf(segment);
      const n = segmentTokens(segment, MERGE);
      const from = start;
      start += n;
      const grid = segment.image ?? segment.video;
      const name =
        kind === 'text'
          ? `text, ${quantity(n, 'token')}`
          : `${kind} ${grid.join('×')} patches → ${grid[0]} × ${grid[1] / MERGE} × ${grid[2] / MERGE} tokens`;
      rowsOfTable.push(
        h(
          'tr',
          { class: `img-${kind}`, dataset: { segment: String(index) } },
          h('th', { scope: 'row' }, name),
          h('td', {}, n === 1 ? String(from) : `${from}–${from + n - 1}`),
          [0, 1, 2].map((row) => h('td', {}, idRange(positions, seqLen, row, from, from + n))),
        ),
      );
      if (kind === 'text') {
        blocks.push(
          h(
            'div',
            { class: 'img-block img-block-text' },
            Array.from({ length: n }, (_, j) => cell(from + j, kind)),
          ),
        );
        return;
      }
      const perFrame = (grid[1] / MERGE) * (grid[2] / MERGE);
      const frames = Array.from({ length: grid[0] }, (_, f) => {
        const frame = h(
          'div',
          { class: 'img-frame' },
          Array.from({ length: perFrame }, (_, j) => cell(from + f * perFrame + j, kind)),
        );
        frame.style.gridTemplateColumns = `repeat(${grid[2] / MERGE}, max-content)`;
        return frame;
      });
      blocks.push(
        h('div', { class: `img-block img-block-${kind}` }, h('div', { class: 'img-block-title' }, name), frames),
      );
    });
    strip.replaceChildren(...blocks);
    table.replaceChildren(
      h('caption', {}, 'Each segment’s token indices and the ranges of its (t, h, w) ids'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['segment', 'token indices', 't ids', 'h ids', 'w ids'].map((text) => h('th', { scope: 'col' }, text)),
        ),
      ),
      h('tbody', {}, rowsOfTable),
    );
    labelCellsByHeader(table);
    videoNote.textContent = videoFrames(posenc, parsed.segments);
  }

  const request = coalesceToAnimationFrame(draw);
  state.watch(['img.prompt', 'img.model'], request);
  request();
}
