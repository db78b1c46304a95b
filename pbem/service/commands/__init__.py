"""The players' commands by mail (issue 16), one module per command; importing this
package registers them all with :mod:`pbem.service.playercmd`."""
from pbem.service.commands import (
    absence,  # noqa: F401
    address,  # noqa: F401
    archive,  # noqa: F401
    help,  # noqa: F401
    preferences,  # noqa: F401
    press,  # noqa: F401
    resend,  # noqa: F401
)
