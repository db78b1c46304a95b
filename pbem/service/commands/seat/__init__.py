"""seat commands: one module each (pbem.service.commands.registry)"""
