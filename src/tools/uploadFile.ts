import { z } from 'zod';
import { perform } from '../actions/scope';
import { uploadFiles } from '../actions/upload';
import { handleFor, previewOf, refField } from './common';
import { defineTool } from '../contract/types';

export const browserUploadFile = defineTool({
  name: 'browser_upload_file',
  title: 'Upload files',
  description: 'Choose files for the file chooser the page opened (after clicking an upload button), or for a file input given by ref. Paths must be absolute paths of existing files.',
  schema: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(50), ref: refField.optional() }),
  risk: 'upload',
  preview: (i, ctx) => previewOf(ctx, `Uploading ${i.paths.join(', ')} to`, { ref: i.ref }),
  handler: async (i, ctx) => perform(ctx, {}, async (s) => uploadFiles(s, i.paths, i.ref ? await handleFor(s.tab, i.ref) : undefined)),
});
