/** A form's error line, announced to screen readers; nothing when there is no error. */
export function FormError({ error }: { error: string }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error}
    </p>
  );
}
