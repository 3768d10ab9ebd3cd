// The advanced companion (companion.html): the encodings compared, the family, trained models,
// long context, 16-bit precision, images, and the facts and conventions.
import { mountPage } from './page.js';
import { COMPANION } from './pages.js';

mountPage(COMPANION);
