// The lesson (index.html): from why order matters to RoPE's base.
import { mountPage } from './page.js';
import { LESSON } from './pages.js';

mountPage(LESSON);
