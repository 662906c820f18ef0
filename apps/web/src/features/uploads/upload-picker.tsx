/** Picking files or a whole folder to upload into a folder: the hidden inputs, and the calls that open them. */
import { useRef, type ChangeEvent } from 'react';
import { useSessionStore } from '../auth/session-store';

/** The inputs to render once, and `pickFiles` / `pickFolder` for menus and buttons to call. */
export function useUploadPicker(parentId: string) {
  const userId = useSessionStore((s) => s.session!.userId);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(e.target.files ?? [])];
    e.target.value = '';
    if (!chosen.length) return;
    // The upload machinery (tus, hashing) loads on first use, not with the first page.
    const { folderOf, uploadPicked } = await import('./upload-folders');
    await uploadPicked(
      userId,
      chosen.map((file) => ({ file, relativePath: folderOf(file.webkitRelativePath) })),
      parentId,
    );
  };
  const inputs = (
    <>
      <input ref={filesInput} type="file" multiple hidden onChange={(e) => void onPick(e)} data-testid="upload-files" />
      <input
        ref={(el) => {
          folderInput.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        onChange={(e) => void onPick(e)}
        data-testid="upload-folder"
      />
    </>
  );
  return { inputs, pickFiles: () => filesInput.current?.click(), pickFolder: () => folderInput.current?.click() };
}
