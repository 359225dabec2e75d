"""Errors meant for the person (they become ``Failure`` outcomes); anything else is a bug."""

from __future__ import annotations


class UserFacingError(Exception):
    """An error whose message is written for the person, with what to do next."""

    code = "error"
    retryable = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ModelUnreachable(UserFacingError):
    code = "model_unreachable"


class ModelTimeout(UserFacingError):
    code = "model_timeout"


class ModelMissing(UserFacingError):
    code = "model_missing"


class ModelInvalid(UserFacingError):
    """The model answered, but never in the required shape."""

    code = "model_invalid"


class ModelFailed(UserFacingError):
    """The model server answered with an error of its own."""

    code = "model_failed"
