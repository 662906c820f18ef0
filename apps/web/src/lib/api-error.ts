/** The API's error object as a thrown value: the client's own class, so `instanceof` holds for every call's errors. */
export { ApiError, isApiError, LOCAL_ERROR } from '@haul/client';
