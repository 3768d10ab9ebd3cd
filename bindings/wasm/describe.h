// What the JS layer learns from the module once, at load time: every status code with the
// parameter it names, every operation's operand slots, the enums' names, the scaling types whose
// schedule goes by the whole call's length and the specs' shared defaults, as lines of words
// ("status <name> <parameter>", "operands <operation> <slot>...", "enum <name> <value name>...",
// "lengthDependent scalingType <value name>...", "default <slot> <value>").
// One source for each of these facts: the JS layer never restates them.
#pragma once

namespace posenc::bindings {

// A string literal made at compile time (a JSON writer would add more code than the whole core).
extern const char kDescription[];

}  // namespace posenc::bindings
