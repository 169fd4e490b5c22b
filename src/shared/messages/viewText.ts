import { translator } from './translator';
import { viewMessages } from './viewMessages';

/** A label of the dashboard or the matrix in the page's language (the host's, from `init`/`update`). */
export const tv = translator(viewMessages);
