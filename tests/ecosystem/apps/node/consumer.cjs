// A CommonJS consumer: require('posenc'), as a script or an older toolchain writes it.
const { loadPosenc } = require('posenc');

loadPosenc().then((p) => {
  const t = p.sinusoidal({ seqLen: 3, dModel: 8 });
  console.log(
    JSON.stringify({ values: Array.from(t), variant: p.variant, wasmSource: p.wasmSource, wasmFile: p.wasmFile }),
  );
});
