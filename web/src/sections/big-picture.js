// The big picture: where an encoding enters an attention layer. The section is its text and the
// static diagram in index.html; it has no settings and nothing to compute (mountSections renders
// its TeX).
export const id = 'big-picture';

export const settings = {};

export function mount() {}
