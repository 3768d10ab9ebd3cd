// The trained T5 model's learned relative-attention bias: the tensor t5_bias is [numBuckets,
// numHeads] (PyTorch's nn.Embedding layout), so one head's bias per bucket is a strided column.

/** Each head's learned bias per bucket, as Float32Arrays of numBuckets values (head order). */
export function t5BiasPerHead(model) {
  const bias = model.tensors.t5_bias;
  if (!bias) throw new RangeError(`t5BiasPerHead: model ${JSON.stringify(model.encoding)} has no t5_bias tensor`);
  const { numHeads } = model;
  const numBuckets = bias.length / numHeads;
  return Array.from({ length: numHeads }, (_, head) =>
    Float32Array.from({ length: numBuckets }, (_, bucket) => bias[bucket * numHeads + head]),
  );
}
