"""The players' commands by mail (issue 16), one module per command; importing this
package registers them all with :mod:`pbem.service.playercmd`."""
from pbem.service.commands import resend  # noqa: F401
from pbem.service.commands import address  # noqa: F401
from pbem.service.commands import help  # noqa: F401
from pbem.service.commands import preferences  # noqa: F401
from pbem.service.commands import press  # noqa: F401
