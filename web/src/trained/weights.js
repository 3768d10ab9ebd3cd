// A trained model's weights as scripts/train_models.py writes them (web/models/weights.json): per
// model its encoding, the options posenc takes for it, and float32 tensors as little-endian
// base64, each with its shape. Decoded once per model into Float32Arrays.

const REQUIRED = ['embed', 'wq', 'wk', 'wv', 'wo', 'unembed'];

/** The bytes of a base64 string as float32 values, little-endian whatever the platform's order. */
function float32FromBase64(text) {
  const binary = atob(text);
  if (binary.length % 4 !== 0) throw new RangeError(`weights: ${binary.length} bytes is not a float32 array`);
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  return Float32Array.from({ length: binary.length / 4 }, (_, i) => view.getFloat32(4 * i, true));
}

/**
 * One model of the file, decoded: { encoding, options, vocab, lag, trainLength, dModel, numHeads,
 * headDim, parameters, tensors: { name: Float32Array } } with every tensor's size checked against
 * its shape and the architecture.
 */
export function decodeModel(file, encoding) {
  const entry = file?.models?.[encoding];
  if (!entry) throw new RangeError(`weights: no model with encoding ${JSON.stringify(encoding)}`);
  const { vocab, lag, trainLength } = file.task;
  const { dModel, numHeads, headDim } = file.architecture;
  const tensors = {};
  for (const { name, shape, data } of entry.tensors) {
    const values = float32FromBase64(data);
    const size = shape.reduce((product, n) => product * n, 1);
    if (values.length !== size)
      throw new RangeError(`weights: ${encoding}.${name} has ${values.length} values for [${shape}]`);
    tensors[name] = values;
  }
  for (const name of REQUIRED) {
    if (!tensors[name]) throw new RangeError(`weights: ${encoding} has no tensor ${name}`);
  }
  const square = dModel * dModel;
  for (const name of ['wq', 'wk', 'wv', 'wo']) {
    if (tensors[name].length !== square)
      throw new RangeError(`weights: ${encoding}.${name} is not [${dModel}, ${dModel}]`);
  }
  if (tensors.embed.length !== vocab * dModel || tensors.unembed.length !== dModel * vocab)
    throw new RangeError(`weights: ${encoding}'s embeddings do not match vocab ${vocab} and dModel ${dModel}`);
  return {
    encoding,
    options: entry.options,
    vocab,
    lag,
    trainLength,
    dModel,
    numHeads,
    headDim,
    parameters: entry.parameters,
    tensors,
  };
}

/** Every model of the file, decoded, in the file's order. */
export function decodeModels(file) {
  return Object.keys(file.models).map((encoding) => decodeModel(file, encoding));
}
