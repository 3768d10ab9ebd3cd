// A minimal ONNX model writer for the interop test: hand-encoded protobuf (ModelProto ->
// GraphProto -> one NodeProto) holding a single RotaryEmbedding node, so the test needs no
// ONNX tooling. Field numbers are those of onnx/onnx.proto.
const utf8 = new TextEncoder();

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

/** Base-128 varint of a non-negative integer (int64 fields included). */
function varint(value) {
  const out = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const tag = (field, wire) => varint((field << 3) | wire);
const intField = (field, value) => [...tag(field, WIRE_VARINT), ...varint(value)];
const bytesField = (field, bytes) => [...tag(field, WIRE_BYTES), ...varint(bytes.length), ...bytes];
const stringField = (field, text) => bytesField(field, [...utf8.encode(text)]);
const messageField = (field, parts) => bytesField(field, parts.flat());

/** TensorProto.DataType values used here. */
export const FLOAT = 1;
export const INT64 = 7;
export const FLOAT16 = 10;

// ValueInfoProto { name = 1, type = 2 }; TypeProto { tensor_type = 1 }; TypeProto.Tensor
// { elem_type = 1, shape = 2 }; TensorShapeProto { dim = 1 }; Dimension { dim_value = 1 }.
function valueInfo(field, { name, type, shape }) {
  const dims = shape.map((size) => messageField(1, [intField(1, size)]));
  return messageField(field, [
    stringField(1, name),
    messageField(2, [messageField(1, [intField(1, type), messageField(2, dims)])]),
  ]);
}

// AttributeProto { name = 1, i = 3, type = 20 (INT = 2) }.
const intAttribute = (name, value) => messageField(5, [stringField(1, name), intField(20, 2), intField(3, value)]);

/**
 * The bytes of a model with one RotaryEmbedding node: `inputs` in the operator's order, each
 * { name, type, shape }; the output Y has the first input's type and shape. domain '' is the ONNX
 * operator (opset 23), 'com.microsoft' onnxruntime's contrib operator.
 */
export function rotaryEmbeddingModel({ domain = '', inputs, attributes }) {
  // NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5, domain = 7 }.
  const node = messageField(1, [
    ...inputs.map((input) => stringField(1, input.name)),
    stringField(2, 'Y'),
    stringField(3, 'rotary'),
    stringField(4, 'RotaryEmbedding'),
    ...Object.entries(attributes).map(([name, value]) => intAttribute(name, value)),
    ...(domain ? [stringField(7, domain)] : []),
  ]);
  // GraphProto { node = 1, name = 2, input = 11, output = 12 }.
  const graph = messageField(7, [
    node,
    stringField(2, 'rotary-embedding'),
    ...inputs.map((input) => valueInfo(11, input)),
    valueInfo(12, { name: 'Y', type: inputs[0].type, shape: inputs[0].shape }),
  ]);
  // ModelProto { ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 }; OperatorSetIdProto
  // { domain = 1, version = 2 }.
  const opsets = domain
    ? [messageField(8, [intField(2, 21)]), messageField(8, [stringField(1, domain), intField(2, 1)])]
    : [messageField(8, [intField(2, 23)])];
  return new Uint8Array([intField(1, domain ? 10 : 11), stringField(2, 'posenc tests'), graph, ...opsets].flat());
}
