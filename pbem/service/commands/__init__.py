"""The players' commands by mail (issue 16), one module per command; importing this
package registers them all with :mod:`pbem.service.playercmd`."""
from pbem.service.commands import absence  # noqa: F401, I001
from pbem.service.commands import resend  # noqa: F401
