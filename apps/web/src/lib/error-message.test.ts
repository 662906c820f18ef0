import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import { ERROR_CODES, errorBody, limitDescription, LOCALES, NAME_PROBLEM_TEXT, type ErrorName } from '@haul/shared/plain';
import { ApiError, LOCAL_ERROR } from './api-error';
import { errorMessage, errorText } from './error-message';
import { NAME_TEXT, waitWords } from './error-texts';

const files = import.meta.glob<Record<string, unknown>>('../locales/*.json', { eager: true, import: 'default' });
const resources = Object.fromEntries(LOCALES.map((l) => [l, { translation: files[`../locales/${l}.json`]! }]));

beforeAll(async () => {
  await i18n.init({ resources, lng: 'en-US', fallbackLng: 'en-US', interpolation: { escapeValue: false } });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en-US');
});

const apiError = (status: number, name: ErrorName, description: string, details: unknown[] = []) =>
  new ApiError(status, name, description, errorBody(name, description, details));
const GB = 1024 ** 3;
const monthlyUpload = limitDescription({ title: "This month's upload allowance is used up.", kind: 'upload_size_month', limit: String(10 * GB), usage: String(9.5 * GB) });

describe(errorText.name, () => {
  it('(a) takes the first detail message in the reader’s language, before anything else', async () => {
    await i18n.changeLanguage('zh-CN');
    const details = [
      { retry_after_seconds: 30 },
      { locale: 'es', message: 'Mensaje del servidor' },
      { locale: 'zh-Hans-CN', message: '服务器的中文说明' },
      { locale: 'zh-CN', message: '第二条' },
    ];
    expect(errorText({ error: 'too_many_requests', error_description: 'Too many tries.', details })).toBe('服务器的中文说明');
    await i18n.changeLanguage('es');
    expect(errorText({ error: 'file_not_found', error_description: 'The file does not exist.', details })).toBe('Mensaje del servidor');
    // No message in the reader's language: on to the client's words.
    await i18n.changeLanguage('ja');
    expect(errorText({ error: 'file_not_found', error_description: 'The file does not exist.', details })).toBe(i18n.t('errors.file_not_found'));
  });

  it('(b) translates the error by its name rather than show the server’s English', async () => {
    await i18n.changeLanguage('zh-CN');
    const text = errorText(errorBody('file_duplicated_name', 'A file or folder named "a.txt" already exists here.'));
    expect(text).toBe('此处已有同名的文件或文件夹，请换一个名称。');
    await i18n.changeLanguage('es');
    expect(errorText(errorBody('invalid_grant', 'The password is incorrect.'))).toBe(
      'La contraseña o el código no son correctos o ya no son válidos. Revísalo e inténtalo de nuevo.',
    );
  });

  it('(b) puts a limit’s numbers, from its JSON description, into the words', async () => {
    await i18n.changeLanguage('es');
    expect(errorText(errorBody('monthly_upload_size_exceeded', monthlyUpload))).toBe('Esto supera la cuota de subida de este mes: 9,5 GB de 10,0 GB usados.');
    const storage = limitDescription({ title: 'Storage is full.', kind: 'storage', limit: String(2 * GB), usage: String(1.5 * GB), needed: String(GB) });
    await i18n.changeLanguage('en-US');
    expect(errorText(errorBody('file_space_not_enough', storage))).toBe('Not enough storage space: 512.0 MB of your 2.0 GB is free.');
    const tasks = limitDescription({ title: 'No more today.', kind: 'cloud_download', limit: '5', usage: '5' });
    expect(errorText(errorBody('task_daily_create_limit', tasks))).toBe('You have added as many cloud downloads today as your plan allows (5).');
    // Without the details it needs, the plain words of the name.
    expect(errorText(errorBody('file_space_not_enough', 'There is not enough storage space for this file.'))).toBe(
      'There is not enough storage space for this file.',
    );
    await i18n.changeLanguage('ru');
    expect(errorText(errorBody('file_space_not_enough', 'There is not enough storage space for this file.'))).toBe('Для этого не хватает свободного места.');
  });

  it('(b) says how long to wait when the details tell', async () => {
    await i18n.changeLanguage('es');
    expect(errorText(errorBody('too_many_requests', 'Too many tries. Please try again in 120 seconds.', [{ retry_after_seconds: 120 }]))).toBe(
      'Demasiados intentos. Inténtalo de nuevo dentro de 2 minutos.',
    );
    expect(waitWords(45, 'en-US')).toBe('45 seconds');
    expect(waitWords(3601, 'en-US')).toBe('61 minutes');
    expect(waitWords(3 * 3600, 'ja')).toBe('3 時間');
  });

  it('(b) words what the details name: a reason, a share’s status, a name problem', async () => {
    await i18n.changeLanguage('zh-TW');
    expect(errorText(errorBody('failed_precondition', 'This is the only administrator account.', [{ reason: 'LAST_ADMINISTRATOR' }]))).toBe(
      i18n.t('account.deletion.blockers.LAST_ADMINISTRATOR'),
    );
    expect(errorText(errorBody('permission_denied', 'The share has expired.', [{ share_status: 'EXPIRED' }]))).toBe(i18n.t('publicShare.status.EXPIRED'));
    expect(errorText(errorBody('invalid_argument', NAME_PROBLEM_TEXT.too_long))).toBe('名稱太長。');
  });

  it('(c) keeps the server’s words where the name alone would lose what they say, and for names it does not know', async () => {
    await i18n.changeLanguage('zh-CN');
    // Which field, which condition: only the description says.
    expect(errorText(errorBody('invalid_argument', 'Please enter a valid email address.'))).toBe('Please enter a valid email address.');
    expect(errorText(errorBody('failed_precondition', 'This code has been used up.'))).toBe('This code has been used up.');
    expect(errorText(errorBody('permission_denied', 'Registration is closed on this server.'))).toBe('Registration is closed on this server.');
    expect(errorText({ error: 'some_new_error', error_description: 'A new thing went wrong.' })).toBe('A new thing went wrong.');
    expect(errorText({ error: 'some_new_limit', error_description: monthlyUpload })).toBe("This month's upload allowance is used up.");
    // Without a description, those names have words of their own.
    expect(errorText({ error: 'invalid_argument' })).toBe('填写的内容有误，请检查后重试。');
  });

  it('(c) gives a reader of English the server’s own, more specific, words', () => {
    expect(errorText(errorBody('invalid_grant', 'The password is incorrect.'))).toBe('The password is incorrect.');
    expect(errorText(errorBody('file_duplicated_name', 'A file or folder named "a.txt" already exists here.'))).toBe(
      'A file or folder named "a.txt" already exists here.',
    );
    // A limit's description is data, not words.
    expect(errorText(errorBody('monthly_upload_size_exceeded', monthlyUpload))).toBe("This goes over this month's upload allowance: 9.5 GB of 10.0 GB used.");
  });

  it('(d) falls back to a generic sentence, and to "error" before any language is there', async () => {
    await i18n.changeLanguage('ko');
    expect(errorText({})).toBe('문제가 발생했습니다. 다시 시도하세요.');
    expect(errorText({ error: 'some_new_error' })).toBe('문제가 발생했습니다. 다시 시도하세요.');
    vi.spyOn(i18n, 'exists').mockReturnValue(false);
    expect(errorText({ error: 'file_not_found' })).toBe('error');
  });
});

describe(errorMessage.name, () => {
  it('words failures of the client’s own in the reader’s language', async () => {
    await i18n.changeLanguage('es');
    expect(errorMessage(new ApiError(0, LOCAL_ERROR, 'Cannot reach the server at this address (ECONNREFUSED).'))).toBe(
      'No se pudo conectar con el servidor. Comprueba tu conexión e inténtalo de nuevo.',
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(i18n.t('errors.network'));
    expect(errorMessage(new ApiError(502, LOCAL_ERROR, '502 Bad Gateway'))).toBe(i18n.t('errors.unavailable'));
    expect(errorMessage(new ApiError(418, LOCAL_ERROR, "418 I'm a teapot"))).toBe('El servidor no ha podido completar la solicitud (error 418). Inténtalo de nuevo.');
    expect(errorMessage(new ApiError(401, 'unauthenticated', '401 Unauthorized'))).toBe('Has salido de tu cuenta. Vuelve a iniciar sesión.');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(errorMessage(new ApiError(0, LOCAL_ERROR, 'x'))).toBe('No tienes conexión. Compruébala e inténtalo de nuevo.');
  });

  it('reads the error object of an ApiError, says nothing for an abort, and keeps other errors’ own words', async () => {
    await i18n.changeLanguage('pt');
    expect(errorMessage(apiError(404, 'file_not_found', 'The file does not exist.'))).toBe('Este arquivo ou pasta não existe mais. Pode ter sido excluído ou movido.');
    expect(errorMessage(new DOMException('The user aborted a request.', 'AbortError'))).toBe('');
    expect(errorMessage(new ApiError(0, 'cancelled', 'Cancelado'))).toBe('Cancelado');
    expect(errorMessage(new Error('Hashing failed'))).toBe('Hashing failed');
    expect(errorMessage(undefined)).toBe('Algo deu errado. Tente novamente.');
  });
});

describe('the words for each error name', () => {
  it('has a text for every name of the catalogue, translated in every locale', async () => {
    expect(Object.keys(NAME_TEXT).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    const english = Object.fromEntries(Object.entries(NAME_TEXT).map(([name, words]) => [name, words()]));
    for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
      await i18n.changeLanguage(locale);
      for (const [name, words] of Object.entries(NAME_TEXT)) {
        const text = words();
        expect(text, `${locale} ${name}`).toBeTruthy();
        expect(text, `${locale} ${name}`).not.toBe(english[name]);
      }
    }
  });
});
