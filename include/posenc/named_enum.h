// The enums the JS API names by strings (layouts, orders, scaling types, ...). Each is made from
// one list, X(enumerator, "JS name") in value order, beside the enum: the enum's enumerators and
// the names describe() hands the JS layer come from it, so no value can lack its name or take
// another's.
#pragma once

// The enumerator of an entry of such a list.
#define POSENC_ENUMERATOR(enumerator, name) enumerator,
