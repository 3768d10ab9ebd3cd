// A section's figure is a posenc element (widgets/): the section keeps the figure's settings in
// the page's URL state (state.js) under its own keys, with the element's specs (so links and
// attributes have the same ranges), and the element follows them.
import { camelCase } from '../../widgets/elements/element.js';

/** The URL settings of an element's attributes: { key: spec } for attributes given as { key: name }. */
export function elementSettings(ElementClass, attributes) {
  return Object.fromEntries(Object.entries(attributes).map(([key, name]) => [key, ElementClass.settings[name].spec]));
}

/** The element's own controls, bound to the page's settings (in the order of `keys`). */
export function elementControls(ElementClass, attributes, state, keys = Object.keys(attributes)) {
  return keys.map((key) => ElementClass.settings[attributes[key]].control(state, key));
}

/** Keeps the elements' properties equal to the page's settings: now, and on every change of one. */
export function bindElements(state, attributes, ...elements) {
  const apply = () => {
    for (const [key, name] of Object.entries(attributes))
      for (const element of elements) element[camelCase(name)] = state.get(key);
  };
  apply();
  state.watch(Object.keys(attributes), apply);
}
